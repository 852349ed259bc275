// Reports: the client builds them from true answers; the server validates them.
#include <doctest/doctest.h>

#include "core/survey/aggregate.h"
#include "core/survey/report.h"
#include "core/common/seeded_random.h"
#include "core/kinds/categorical/categorical_results.h"

using namespace deniable;
using nlohmann::json;

namespace {

Survey TwoQuestionSurvey() {
  return *ParseSurvey(json::parse(R"({
    "format": "deniable.survey/v1", "id": "s1", "version": 3, "title": "T",
    "questions": [
      {"id": "a", "text": "A?", "options": ["x", "y", "z"], "mechanism": {"name": "grr", "epsilon": 1}},
      {"id": "b", "text": "B?", "options": ["u", "v", "w", "t"], "mechanism": {"name": "oue", "epsilon": 1}}
    ]})"));
}

std::string ReportError(const std::string& text) {
  auto report = ParseReport(TwoQuestionSurvey(), json::parse(text));
  REQUIRE_FALSE(report.ok());
  return report.error();
}

}  // namespace

TEST_CASE("a perturbed report holds only the survey reference and the perturbed responses") {
  const Survey survey = TwoQuestionSurvey();
  SeededRandom random(42);
  auto report = PerturbAnswers(survey, json{{"a", 2}, {"b", 0}}, random);
  REQUIRE(report.ok());
  CHECK(report->size() == 3);
  CHECK((*report)["survey"] == "s1");
  CHECK((*report)["version"] == 3);
  CHECK((*report)["responses"]["a"].is_number_integer());
  CHECK((*report)["responses"]["b"].size() == 4);
  auto parsed = ParseReport(survey, *report);
  REQUIRE(parsed.ok());
  CHECK(parsed->responses.size() == 2);
}

TEST_CASE("the same seed gives the same report") {
  const Survey survey = TwoQuestionSurvey();
  SeededRandom first(99), second(99);
  CHECK(*PerturbAnswers(survey, json{{"a", 1}, {"b", 3}}, first) ==
        *PerturbAnswers(survey, json{{"a", 1}, {"b", 3}}, second));
}

TEST_CASE("bad answers are rejected before anything is perturbed") {
  const Survey survey = TwoQuestionSurvey();
  SeededRandom random(1);
  CHECK(PerturbAnswers(survey, json{{"a", 1}}, random).error() == "answers.b: question is not answered");
  CHECK(PerturbAnswers(survey, json{{"a", 3}, {"b", 0}}, random).error() ==
        "answers.a: answer must be between 0 and 2, but is 3");
  CHECK(PerturbAnswers(survey, json{{"a", "x"}, {"b", 0}}, random).error() ==
        "answers.a: must be an option index, but is \"x\"");
  CHECK(PerturbAnswers(survey, json{{"a", 1}, {"b", 0}, {"c", 0}}, random).error() ==
        "answers.c: no question with this id in survey \"s1\"");
  CHECK(PerturbAnswers(survey, json::array(), random).error() == "answers must be a JSON object, but is array");
}

TEST_CASE("invalid reports get a message naming the field") {
  CHECK(ReportError(R"([1])") == "report must be a JSON object, but is array");
  CHECK(ReportError(R"({"survey":"s1","version":3})") == "responses: required field is missing");
  CHECK(ReportError(R"({"survey":"s2","version":3,"responses":{}})") ==
        "survey: report is for survey \"s2\", not \"s1\"");
  CHECK(ReportError(R"({"survey":"s1","version":2,"responses":{}})").rfind(
            "version: report is for version 2 of the survey, but the current version is 3", 0) == 0);
  CHECK(ReportError(R"({"survey":"s1","version":3,"responses":{"a":1}})") == "responses.b: missing response");
  CHECK(ReportError(R"({"survey":"s1","version":3,"responses":{"a":5,"b":[0,0,0,0]}})") ==
        "responses.a: option index must be between 0 and 2, but is 5");
  CHECK(ReportError(R"({"survey":"s1","version":3,"responses":{"a":1,"b":[0,0,0]}})") ==
        "responses.b: a oue report must be an array of 4 bits");
  CHECK(ReportError(R"({"survey":"s1","version":3,"responses":{"a":1,"b":[0,0,0,0],"c":1}})") ==
        "responses.c: no question with this id in survey \"s1\"");
  CHECK(ReportError(R"({"survey":"s1","version":3,"responses":{"a":1,"b":[0,0,0,0]},"answers":{"a":1}})") ==
        "answers: unknown field (expected one of survey, version, responses)");
}

TEST_CASE("aggregates count supports and merge; a mismatched merge changes nothing") {
  const Survey survey = TwoQuestionSurvey();
  SurveyAggregate first(survey), second(survey);
  first.Add(*ParseReport(survey, json::parse(R"({"survey":"s1","version":3,"responses":{"a":2,"b":[1,0,1,0]}})")));
  second.Add(*ParseReport(survey, json::parse(R"({"survey":"s1","version":3,"responses":{"a":2,"b":[0,0,1,1]}})")));
  REQUIRE(first.Merge(second).ok());
  CHECK(first.respondents() == 2);
  CHECK(static_cast<const CategoricalAggregate&>(first.question(0)).support_counts() == std::vector<std::int64_t>{0, 0, 2});
  CHECK(static_cast<const CategoricalAggregate&>(first.question(1)).support_counts() == std::vector<std::int64_t>{1, 0, 2, 1});
  CHECK(first.question(1).n() == 2);
  auto other = *ParseSurvey(json::parse(R"({"format": "deniable.survey/v1", "id": "o", "version": 1, "title": "T",
    "questions": [{"id": "a", "text": "A?", "options": ["x", "y"], "mechanism": {"name": "grr", "epsilon": 1}}]})"));
  CHECK(first.Merge(SurveyAggregate(other)).error() == "cannot merge aggregates of different surveys");
  CHECK(first.respondents() == 2);
}
