// Numeric questions in the survey format, reports and aggregates.
#include <doctest/doctest.h>

#include "core/survey/aggregate.h"
#include "core/survey/report.h"
#include "core/common/seeded_random.h"
#include "core/kinds/numeric/numeric_results.h"
#include "core/kinds/categorical/categorical_results.h"

using namespace deniable;
using nlohmann::json;

namespace {

json NumericSurvey() {
  return json::parse(R"({
    "format": "deniable.survey/v1", "id": "n1", "version": 1, "title": "T",
    "questions": [
      {"id": "bmi", "text": "BMI?", "type": "numeric", "range": [10, 50], "unit": "kg/m2",
       "mechanism": {"name": "rvns", "window": 4, "values": 3, "window_mode": "fresh", "uniform_probability": 0.25}},
      {"id": "age", "text": "Age?", "type": "numeric", "range": [18, 90],
       "mechanism": {"name": "piecewise", "epsilon": 1}},
      {"id": "yes", "text": "Yes?", "options": ["y", "n"], "mechanism": {"name": "grr", "epsilon": 1}}
    ]})");
}

std::string ErrorOf(const std::function<void(json&)>& edit) {
  json document = NumericSurvey();
  edit(document);
  auto survey = ParseSurvey(document);
  REQUIRE_FALSE(survey.ok());
  return survey.error();
}

}  // namespace

TEST_CASE("numeric questions parse, compose epsilon and round-trip canonically") {
  auto survey = ParseSurvey(NumericSurvey());
  REQUIRE_MESSAGE(survey.ok(), (survey.ok() ? "" : survey.error()));
  const auto& bmi = survey->questions[0];
  CHECK(bmi.kind->type() == "numeric");
  CHECK(NumericKindOf(bmi).range().low == 10.0);
  CHECK(NumericKindOf(bmi).unit() == "kg/m2");
  CHECK(NumericKindOf(bmi).mechanism().values_per_report() == 3);
  // RVNS epsilon = k ln(1 + (1 - gamma)(b - a) / (gamma (b - a - d))) = 3 ln(1 + 0.75 * 40 / (0.25 * 36)).
  CHECK(*bmi.epsilon() == doctest::Approx(3 * std::log(1 + 0.75 * 40 / (0.25 * 36))));
  CHECK(*TotalEpsilon(*survey) == doctest::Approx(*bmi.epsilon() + 2.0));
  const json canonical = SurveyToJson(*survey);
  CHECK(canonical["questions"][0]["type"] == "numeric");
  CHECK(canonical["questions"][0]["range"] == json::parse("[10.0, 50.0]"));
  CHECK(SurveyToJson(*ParseSurvey(canonical)) == canonical);
  CHECK(canonical["questions"][1].contains("unit") == false);
}

TEST_CASE("the published RVNS has no formal epsilon") {
  json document = NumericSurvey();
  document["questions"][0]["mechanism"].erase("uniform_probability");
  auto survey = ParseSurvey(document);
  REQUIRE(survey.ok());
  CHECK_FALSE(survey->questions[0].epsilon().has_value());
  CHECK_FALSE(TotalEpsilon(*survey).has_value());
  CHECK(survey->questions[0].kind->PrivacyToJson()["note"].get<std::string>().rfind("no formal epsilon", 0) == 0);
}

TEST_CASE("invalid numeric questions name the field") {
  CHECK(ErrorOf([](json& d) { d["questions"][0].erase("range"); }) == "questions[0].range: required field is missing");
  CHECK(ErrorOf([](json& d) { d["questions"][0]["range"] = {5}; }) ==
        "questions[0].range: must be an array [low, high] of two numbers, but is [5]");
  CHECK(ErrorOf([](json& d) { d["questions"][0]["range"] = {5, 1}; }).rfind("questions[0].range: ", 0) == 0);
  CHECK(ErrorOf([](json& d) { d["questions"][0]["options"] = {"a", "b"}; }) ==
        "questions[0].options: unknown field (expected one of id, text, type, range, unit, step, mechanism, privacy, required)");
  CHECK(ErrorOf([](json& d) { d["questions"][0]["mechanism"]["name"] = "grr"; }) ==
        "questions[0].mechanism.name: unknown numeric mechanism \"grr\" (expected one of rvns, laplace, duchi, "
        "piecewise, hybrid, square_wave, levels)");
  CHECK(ErrorOf([](json& d) { d["questions"][0]["mechanism"]["window"] = 30; }).rfind(
            "questions[0].mechanism", 0) == 0);
}

TEST_CASE("numeric answers are perturbed into values and validated on the way back") {
  const auto survey = *ParseSurvey(NumericSurvey());
  SeededRandom random(5);
  auto report = PerturbAnswers(survey, json{{"bmi", 22.5}, {"age", 40}, {"yes", 0}}, random);
  REQUIRE_MESSAGE(report.ok(), (report.ok() ? "" : report.error()));
  CHECK((*report)["responses"]["bmi"].size() == 3);
  CHECK((*report)["responses"]["age"].size() == 1);
  auto parsed = ParseReport(survey, *report);
  REQUIRE(parsed.ok());
  CHECK(static_cast<const NumericResponse&>(*parsed->responses[0]).values.size() == 3);
  CHECK(static_cast<const CategoricalResponse&>(*parsed->responses[2]).support.size() == 2);

  CHECK(PerturbAnswers(survey, json{{"bmi", "x"}, {"age", 40}, {"yes", 0}}, random).error() ==
        "answers.bmi: must be a number, but is \"x\"");
  CHECK(PerturbAnswers(survey, json{{"bmi", 60}, {"age", 40}, {"yes", 0}}, random).error() ==
        "answers.bmi: answer must be a number in [10, 50], but is 60");
  auto bad = *report;
  bad["responses"]["bmi"] = {20, 30};
  CHECK(ParseReport(survey, bad).error() == "responses.bmi: a rvns report must be an array of 3 numbers");
  bad["responses"]["bmi"] = {20, 30, 51};
  CHECK(ParseReport(survey, bad).error() == "responses.bmi: value 2 must be a number in [10, 50], but is 51");
  bad["responses"]["bmi"] = {20, 30, "x"};
  CHECK(ParseReport(survey, bad).error() == "responses.bmi: value 2 must be a number in [10, 50], but is \"x\"");
}

TEST_CASE("numeric aggregates are fine histograms that merge") {
  const auto survey = *ParseSurvey(NumericSurvey());
  SeededRandom random(6);
  SurveyAggregate first(survey), second(survey);
  for (int i = 0; i < 10; ++i) {
    auto& target = i % 2 ? first : second;
    target.Add(*ParseReport(survey, *PerturbAnswers(survey, json{{"bmi", 25}, {"age", 30}, {"yes", 1}}, random)));
  }
  REQUIRE(first.Merge(second).ok());
  CHECK(first.question(0).n() == 10);
  CHECK(static_cast<const NumericAggregate&>(first.question(0)).histogram().reports() == 10);
  CHECK(static_cast<const NumericAggregate&>(first.question(0)).histogram().values() == 30);
  CHECK(static_cast<const NumericAggregate&>(first.question(1)).histogram().values() == 10);
  CHECK(first.question(2).type() == "categorical");
}
