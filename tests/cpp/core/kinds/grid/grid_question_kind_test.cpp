// The rating grid as a question (core/kinds/grid/): its definition's checks,
// the privacy statement for the whole grid, answers and reports validated,
// the results' shape (every estimate inside its own interval), the CSV rows
// and the advisor.
#include <doctest/doctest.h>

#include <cmath>
#include <string>

#include "core/common/seeded_random.h"
#include "core/kinds/grid/grid_advice.h"
#include "core/kinds/grid/grid_question_kind.h"
#include "core/survey/aggregate.h"
#include "core/survey/report.h"
#include "core/survey/results.h"
#include "core/survey/survey.h"

using namespace deniable;
using nlohmann::json;

namespace {

json Grid(json changes = json::object()) {
  json question = {{"id", "g"}, {"text", "Agree?"}, {"type", "grid"},
                   {"items", {"Valued", "Recommend", "Stay"}},
                   {"scale", {"Strongly disagree", "Disagree", "Neutral", "Agree", "Strongly agree"}},
                   {"mechanism", {{"name", "ordinal"}, {"epsilon", 3}}}};
  question.update(changes);
  return {{"format", kSurveyFormat}, {"id", "s"}, {"version", 1}, {"title", "T"}, {"questions", {question}}};
}

std::string ParseError(const json& changes) {
  auto survey = ParseSurvey(Grid(changes));
  REQUIRE_FALSE(survey.ok());
  return survey.error();
}

bool Says(const std::string& error, const std::string& part) {
  const bool found = error.find(part) != std::string::npos;
  if (!found) MESSAGE(error);
  return found;
}

}  // namespace

TEST_CASE("grid definition: items 2-30, scale 2-11, a mechanism with the grid's epsilon") {
  CHECK(ParseSurvey(Grid()).ok());
  CHECK(Says(ParseError({{"items", {"one"}}}), "questions[0].items: must be an array of 2 to 30"));
  json many = json::array();
  for (int i = 0; i < 31; ++i) many.push_back("item " + std::to_string(i));
  CHECK(Says(ParseError({{"items", many}}), "items: must be an array of 2 to 30"));
  json levels = json::array();
  for (int i = 0; i < 12; ++i) levels.push_back(std::to_string(i));
  CHECK(Says(ParseError({{"scale", levels}}), "scale: must be an array of 2 to 11"));
  CHECK(Says(ParseError({{"scale", {"Low", "low"}}}), "scale[1]"));
  CHECK(Says(ParseError({{"mechanism", {{"name", "oue"}, {"epsilon", 1}}}}), "mechanism.name"));
  CHECK(Says(ParseError({{"mechanism", {{"name", "grr"}}}}), "mechanism.epsilon"));
  CHECK(Says(ParseError({{"options", {"a", "b"}}}), "options"));
  // Each item's share must itself be a valid epsilon: 0.02 over 3 items is not.
  CHECK(Says(ParseError({{"mechanism", {{"name", "grr"}, {"epsilon", 0.02}}}}),
             "mechanism.epsilon: each of the 3 items is reported at epsilon / 3"));
  json no_scale = Grid();
  no_scale["questions"][0].erase("scale");
  CHECK(Says(ParseSurvey(no_scale).error(), "scale: required field is missing"));
  // The canonical definition parses back to itself.
  const json canonical = SurveyToJson(*ParseSurvey(Grid()));
  CHECK(SurveyToJson(*ParseSurvey(canonical)) == canonical);
}

TEST_CASE("grid privacy: the whole grid at epsilon, each item at epsilon / items") {
  const auto survey = *ParseSurvey(Grid());
  const auto& kind = *survey.questions[0].kind;
  CHECK(kind.epsilon() == 3.0);
  const json privacy = kind.PrivacyToJson();
  CHECK(privacy["epsilon"] == 3.0);
  CHECK(privacy["epsilon_per_item"] == 1.0);
  CHECK(Says(privacy["note"], "the whole grid is 3-LDP"));
  CHECK(Says(privacy["note"], "sequential composition"));
}

TEST_CASE("grid answers and reports: one level per item, checked") {
  const auto survey = *ParseSurvey(Grid());
  SeededRandom random(3);
  const auto report = PerturbAnswers(survey, {{"g", {0, 4, 2}}}, random);
  REQUIRE(report.ok());
  const json& levels = (*report)["responses"]["g"];
  CHECK(levels.size() == 3);
  CHECK(ParseReport(survey, *report).ok());
  CHECK(Says(PerturbAnswers(survey, {{"g", {0, 5, 2}}}, random).error(), "answer[1] must be a level between 0 and 4"));
  CHECK(Says(PerturbAnswers(survey, {{"g", {0, 1}}}, random).error(), "array of 3 level indices"));
  CHECK(Says(PerturbAnswers(survey, {{"g", 2}}, random).error(), "array of 3"));
  json bad = *report;
  bad["responses"]["g"] = {0, -1, 2};
  CHECK_FALSE(ParseReport(survey, bad).ok());
  bad["responses"]["g"] = {0, 1, 2, 3};
  CHECK_FALSE(ParseReport(survey, bad).ok());
}

TEST_CASE("grid results: per item the mean position and the distribution, each estimate inside its interval") {
  const auto survey = *ParseSurvey(Grid({{"mechanism", {{"name", "grr"}, {"epsilon", 6}}}}));
  SeededRandom random(9);
  SurveyAggregate aggregate(survey);
  for (int i = 0; i < 300; ++i) {
    auto report = ParseReport(survey, *PerturbAnswers(survey, {{"g", {i % 5, 4, i % 2}}}, random));
    REQUIRE(report.ok());
    aggregate.Add(*report);
  }
  const json result = SurveyResultsToJson(survey, aggregate, json::object())["questions"][0];
  CHECK(result["n"] == 300);
  CHECK(result["interval_for"]["target"] == "population");
  CHECK(result["scale"].size() == 5);
  REQUIRE(result["items"].size() == 3);
  for (const auto& item : result["items"]) {
    const auto& mean = item["mean"];
    CHECK(mean["ci_low"].get<double>() <= mean["estimate"].get<double>());
    CHECK(mean["estimate"].get<double>() <= mean["ci_high"].get<double>());
    CHECK(mean["consistent_ci_low"].get<double>() <= mean["consistent"].get<double>());
    CHECK(mean["consistent"].get<double>() <= mean["consistent_ci_high"].get<double>());
    CHECK(mean["consistent_ci_low"].get<double>() >= 1.0);
    CHECK(mean["consistent_ci_high"].get<double>() <= 5.0);
    double total = 0.0;
    for (const auto& level : item["levels"]) {
      total += level["consistent_frequency"].get<double>();
      CHECK(level["ci_low"].get<double>() <= level["frequency"].get<double>());
      CHECK(level["consistent_ci_low"].get<double>() <= level["consistent_frequency"].get<double>());
      CHECK(level["consistent_frequency"].get<double>() <= level["consistent_ci_high"].get<double>());
    }
    CHECK(total == doctest::Approx(1.0));
  }
  // Everyone answered "Strongly agree" to item 2: its mean position is near 5.
  CHECK(result["items"][1]["mean"]["estimate"].get<double>() == doctest::Approx(5.0).epsilon(0.05));
  // Respondents' intervals are narrower (the randomisation alone).
  const json respondents = SurveyResultsToJson(survey, aggregate, {{"interval", "respondents"}})["questions"][0];
  CHECK(respondents["interval_for"]["target"] == "respondents");
  CHECK(respondents["items"][0]["mean"]["std_error"].get<double>() <
        result["items"][0]["mean"]["std_error"].get<double>());
  // CSV: per item its mean row and one row per level.
  const auto rows = survey.questions[0].kind->CsvRows(result);
  REQUIRE(rows.size() == 3 * (1 + 5));
  CHECK(rows[0].measure == "mean_position");
  CHECK(rows[0].variables == std::vector<std::pair<std::string, std::string>>{{"item", "Valued"}});
  CHECK(rows[1].measure == "frequency");
  CHECK(rows[1].label == "Valued: Strongly disagree");
  // No reports yet: numbers are null, and the result says why.
  const json empty = SurveyResultsToJson(survey, SurveyAggregate(survey), json::object())["questions"][0];
  CHECK(empty["items"][0]["mean"]["estimate"].is_null());
  CHECK(empty["warning"] == "no reports yet");
}

TEST_CASE("grid advisor: compares the mechanisms' standard error of an item's mean position") {
  // Small epsilon per item (0.5 over 5 items, L = 7): the ordinal mechanism is better.
  const json small = GridAdviceToJson(5, 7, 0.5, 1000, GridMechanismKind::kGrr);
  CHECK(small["recommended"] == "ordinal");
  CHECK(small["mechanisms"][0]["mean_std_error"].get<double>() < small["mechanisms"][1]["mean_std_error"].get<double>());
  CHECK(Says(small["note"], "the question uses \"grr\""));
  // Large epsilon per item (4 for one item, L = 5): GRR is better.
  const json large = GridAdviceToJson(1, 5, 4, 1000, GridMechanismKind::kGrr);
  CHECK(large["recommended"] == "grr");
  // The standard error falls like 1 / sqrt(n).
  CHECK(PlanningMeanStdError(GridMechanismKind::kOrdinal, 5, 1.0, 400) ==
        doctest::Approx(2.0 * PlanningMeanStdError(GridMechanismKind::kOrdinal, 5, 1.0, 1600)));
  // Duchi is shown beside them (the mean alone), never recommended: it gives no distribution.
  CHECK(small["mechanisms"][2]["name"] == "duchi");
  CHECK(small["mechanisms"][2]["distribution"] == false);
  CHECK(small["mechanisms"][2]["mean_std_error"].get<double>() < small["mechanisms"][0]["mean_std_error"].get<double>());
  const auto survey = *ParseSurvey(Grid());
  const auto advice = survey.questions[0].kind->DesignAdvice(500);
  REQUIRE(advice);
  CHECK((*advice)["chosen"] == "ordinal");
}

TEST_CASE("grid with duchi: one of two ends per item, the mean position alone, no distribution") {
  const auto survey = *ParseSurvey(Grid({{"mechanism", {{"name", "duchi"}, {"epsilon", 3}}}}));
  SeededRandom random(13);
  SurveyAggregate aggregate(survey);
  for (int i = 0; i < 400; ++i) {
    const auto wire = PerturbAnswers(survey, {{"g", {i % 5, 4, 0}}}, random);
    REQUIRE(wire.ok());
    for (const auto& report : (*wire)["responses"]["g"]) CHECK((report == 0 || report == 1));
    aggregate.Add(*ParseReport(survey, *wire));
  }
  json bad = {{"survey", "s"}, {"version", 1}, {"responses", {{"g", {0, 2, 1}}}}};
  CHECK_FALSE(ParseReport(survey, bad).ok());
  const json result = SurveyResultsToJson(survey, aggregate, json::object())["questions"][0];
  for (const auto& item : result["items"]) {
    CHECK(item["levels"].is_null());
    CHECK(item["mean"]["ci_low"].get<double>() <= item["mean"]["estimate"].get<double>());
    CHECK(item["mean"]["estimate"].get<double>() <= item["mean"]["ci_high"].get<double>());
  }
  // Item 2 answered "Strongly agree" by all: its mean is within its interval's reach of 5.
  const auto& top = result["items"][1]["mean"];
  CHECK(std::fabs(top["estimate"].get<double>() - 5.0) < 4 * top["std_error"].get<double>());
  CHECK(survey.questions[0].kind->CsvRows(result).size() == 3);  // the means only
  const json respondents = SurveyResultsToJson(survey, aggregate, {{"interval", "respondents"}})["questions"][0];
  CHECK(Says(respondents["interval_for"]["note"], "conservative"));
}
