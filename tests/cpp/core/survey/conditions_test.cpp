// Conditions ("show_if"): a question asked only when an earlier open question
// has given the named answers. Valid forms, each refusal with its message,
// evaluation, the report (a hidden question is skipped; answering one is
// refused on both sides), the results' n, and simulate.
#include <doctest/doctest.h>

#include "core/common/seeded_random.h"
#include "core/survey/aggregate.h"
#include "core/survey/report.h"
#include "core/survey/results.h"
#include "core/survey/simulation.h"
#include "core/survey/survey.h"

using namespace deniable;
using nlohmann::json;

namespace {

// smoker (open, categorical), age (open, numeric), drugs (randomised),
// trust (in confidence), then the follow-up under test at the end.
json SurveyWith(const json& follow_up) {
  json document = json::parse(R"({
    "format": "deniable.survey/v1", "id": "cond", "version": 1, "title": "T",
    "questions": [
      {"id": "smoker", "text": "Do you smoke?", "type": "categorical", "options": ["Yes", "Sometimes", "No"], "privacy": "open"},
      {"id": "age", "text": "Age?", "type": "numeric", "range": [0, 120], "privacy": "open"},
      {"id": "drugs", "text": "Drugs?", "options": ["Yes", "No"], "mechanism": {"name": "grr", "epsilon": 1}},
      {"id": "trust", "text": "Trust?", "options": ["Yes", "No"], "privacy": "central", "budget": 1}
    ]})");
  document["questions"].push_back(follow_up);
  return document;
}

json FollowUp(const json& show_if) {
  json question = json::parse(R"({"id": "packs", "text": "How many packs a week?", "options": ["1", "2+"],
                                   "mechanism": {"name": "grr", "epsilon": 1}})");
  question["show_if"] = show_if;
  return question;
}

std::string ErrorOf(const json& document) {
  auto survey = ParseSurvey(document);
  REQUIRE_FALSE(survey.ok());
  return survey.error();
}

Survey Parsed(const json& document) {
  auto survey = ParseSurvey(document);
  REQUIRE_MESSAGE(survey.ok(), survey.error());
  return std::move(survey).value();
}

}  // namespace

TEST_CASE("conditions: a condition on an open categorical or numeric question parses and round-trips") {
  const Survey on_options = Parsed(SurveyWith(FollowUp(json::parse(R"({"question": "smoker", "any_of": ["Yes", "Sometimes"]})"))));
  const Question& packs = on_options.questions.back();
  REQUIRE(packs.show_if.has_value());
  CHECK(packs.show_if->index == 0);
  CHECK(packs.show_if->any_of == std::vector<std::size_t>{0, 1});
  CHECK(DescribeCondition(*packs.show_if) == "smoker is \"Yes\" or \"Sometimes\"");
  const json canonical = SurveyToJson(on_options);
  CHECK(canonical["questions"][4]["show_if"] == json::parse(R"({"question": "smoker", "any_of": ["Yes", "Sometimes"]})"));
  CHECK(SurveyToJson(Parsed(canonical)) == canonical);

  const Survey on_range = Parsed(SurveyWith(FollowUp(json::parse(R"({"question": "age", "at_least": 18, "at_most": 30})"))));
  CHECK(DescribeCondition(*on_range.questions.back().show_if) == "age is between 18 and 30");
  const Survey at_least = Parsed(SurveyWith(FollowUp(json::parse(R"({"question": "age", "at_least": 65})"))));
  CHECK(DescribeCondition(*at_least.questions.back().show_if) == "age is at least 65");
  CHECK(SurveyToJson(at_least)["questions"][4]["show_if"] == json::parse(R"({"question": "age", "at_least": 65.0})"));
  // The respondent's module parses the same condition.
  auto client = ParseClientSurvey(canonical);
  REQUIRE(client.ok());
  CHECK(client->questions.back().show_if->any_of == std::vector<std::size_t>{0, 1});
  CHECK_FALSE(Parsed(SurveyWith(json::parse(R"({"id": "x", "text": "X?", "options": ["a", "b"],
      "mechanism": {"name": "grr", "epsilon": 1}})"))).questions.back().show_if.has_value());
}

TEST_CASE("conditions: each refused condition names why") {
  CHECK(ErrorOf(SurveyWith(FollowUp(json::parse(R"({"question": "drugs", "any_of": ["Yes"]})")))) ==
        "questions[4].show_if.question: \"drugs\" is randomised on the device; a condition can name only a question "
        "asked openly (\"privacy\": \"open\"): whether a follow-up is answered would reveal the true answer");
  CHECK(ErrorOf(SurveyWith(FollowUp(json::parse(R"({"question": "trust", "any_of": ["Yes"]})")))) ==
        "questions[4].show_if.question: \"trust\" is answered in confidence; a condition can name only a question "
        "asked openly (\"privacy\": \"open\"): whether a follow-up is answered would reveal the true answer");
  CHECK(ErrorOf(SurveyWith(FollowUp(json::parse(R"({"question": "packs", "any_of": ["1"]})")))) ==
        "questions[4].show_if.question: a question cannot be shown on a condition on its own answer");
  CHECK(ErrorOf(SurveyWith(FollowUp(json::parse(R"({"question": "nobody", "any_of": ["1"]})")))) ==
        "questions[4].show_if.question: no question with the id \"nobody\"");
  // A condition naming a later question.
  json later = SurveyWith(FollowUp(json::parse(R"({"question": "smoker", "any_of": ["Yes"]})")));
  later["questions"][2]["show_if"] = json::parse(R"({"question": "age", "at_least": 1})");
  later["questions"][1]["show_if"] = json::parse(R"({"question": "drugs", "any_of": ["Yes"]})");
  CHECK(ErrorOf(later) == "questions[1].show_if.question: \"drugs\" comes after this question; a condition can name "
                          "only an earlier question");
  CHECK(ErrorOf(SurveyWith(FollowUp(json::parse(R"({"question": "smoker", "any_of": ["Maybe"]})")))) ==
        "questions[4].show_if.any_of[0]: must be one of the options of \"smoker\" ([\"Yes\",\"Sometimes\",\"No\"]), "
        "but is \"Maybe\"");
  CHECK(ErrorOf(SurveyWith(FollowUp(json::parse(R"({"question": "smoker", "any_of": ["Yes", "Yes"]})")))) ==
        "questions[4].show_if.any_of[1]: \"Yes\" is named twice");
  CHECK(ErrorOf(SurveyWith(FollowUp(json::parse(R"({"question": "smoker", "any_of": []})")))) ==
        "questions[4].show_if.any_of: must be a non-empty array of options of \"smoker\", but is []");
  CHECK(ErrorOf(SurveyWith(FollowUp(json::parse(R"({"question": "smoker", "at_least": 1})")))) ==
        "questions[4].show_if: \"smoker\" is a categorical question: name its options in \"any_of\", not bounds");
  CHECK(ErrorOf(SurveyWith(FollowUp(json::parse(R"({"question": "age", "any_of": ["1"]})")))) ==
        "questions[4].show_if: \"age\" is a numeric question: give \"at_least\" and/or \"at_most\", not \"any_of\"");
  CHECK(ErrorOf(SurveyWith(FollowUp(json::parse(R"({"question": "age"})")))) ==
        "questions[4].show_if: give \"at_least\", \"at_most\" or both");
  CHECK(ErrorOf(SurveyWith(FollowUp(json::parse(R"({"question": "age", "at_least": 30, "at_most": 18})")))) ==
        "questions[4].show_if: at_least (30) is above at_most (18)");
  CHECK(ErrorOf(SurveyWith(FollowUp(json::parse(R"({"question": "age", "at_least": "18"})")))) ==
        "questions[4].show_if.at_least: must be a finite number, but is \"18\"");
  CHECK(ErrorOf(SurveyWith(FollowUp(json::parse(R"({"question": "smoker", "anyof": ["Yes"]})")))).rfind(
            "questions[4].show_if.anyof: unknown field", 0) == 0);
  CHECK(ErrorOf(SurveyWith(FollowUp(json::parse(R"("smoker")")))).rfind("questions[4].show_if: must be {", 0) == 0);
  // The respondent's module refuses the same, with the same words.
  auto client = ParseClientSurvey(SurveyWith(FollowUp(json::parse(R"({"question": "drugs", "any_of": ["Yes"]})"))));
  REQUIRE_FALSE(client.ok());
  CHECK(client.error() == ErrorOf(SurveyWith(FollowUp(json::parse(R"({"question": "drugs", "any_of": ["Yes"]})")))));
}

TEST_CASE("conditions: evaluation on the answers as given") {
  const Survey options = Parsed(SurveyWith(FollowUp(json::parse(R"({"question": "smoker", "any_of": ["Yes", "Sometimes"]})"))));
  const Question& packs = options.questions.back();
  CHECK(QuestionShown(packs, json{{"smoker", 0}}));
  CHECK(QuestionShown(packs, json{{"smoker", 1}}));
  CHECK_FALSE(QuestionShown(packs, json{{"smoker", 2}}));
  CHECK_FALSE(QuestionShown(packs, json::object()));           // skipped (or itself hidden): hidden
  CHECK_FALSE(QuestionShown(packs, json{{"smoker", nullptr}}));
  CHECK_FALSE(QuestionShown(packs, json{{"smoker", "Yes"}}));  // answers are option indices
  const Survey range = Parsed(SurveyWith(FollowUp(json::parse(R"({"question": "age", "at_least": 18, "at_most": 30})"))));
  const Question& young = range.questions.back();
  CHECK(QuestionShown(young, json{{"age", 18}}));
  CHECK(QuestionShown(young, json{{"age", 30.0}}));
  CHECK_FALSE(QuestionShown(young, json{{"age", 17.5}}));
  CHECK_FALSE(QuestionShown(young, json{{"age", 31}}));
  CHECK(QuestionShown(options.questions[0], json::object()));  // no condition: always shown
}

TEST_CASE("conditions: a hidden question is left out of the report, and a report answering one is refused") {
  const Survey survey = Parsed(SurveyWith(FollowUp(json::parse(R"({"question": "smoker", "any_of": ["Yes"]})"))));
  SeededRandom random(7);
  const json base = {{"smoker", 2}, {"age", 40}, {"drugs", 1}, {"trust", 0}};
  // Hidden (required or not): no answer needed, none sent.
  auto hidden = PerturbAnswers(survey, base, random);
  REQUIRE(hidden.ok());
  CHECK_FALSE(hidden->at("responses").contains("packs"));
  auto parsed = ParseReport(survey, *hidden);
  REQUIRE(parsed.ok());
  CHECK(parsed->responses.back() == nullptr);
  // Shown: required as usual.
  json shown = base;
  shown["smoker"] = 0;
  CHECK(PerturbAnswers(survey, shown, random).error() == "answers.packs: question is not answered");
  shown["packs"] = 1;
  auto report = PerturbAnswers(survey, shown, random);
  REQUIRE(report.ok());
  CHECK(ParseReport(survey, *report).ok());
  // The device refuses an answer to a hidden question...
  json answered = base;
  answered["packs"] = 1;
  CHECK(PerturbAnswers(survey, answered, random).error() ==
        "answers.packs: the question is asked only when smoker is \"Yes\", and the answers say otherwise, so it must "
        "not be answered");
  // ...and so does the server, from the report's own open answer.
  json forged = *report;
  forged["responses"]["smoker"] = 2;
  CHECK(ParseReport(survey, forged).error() ==
        "responses.packs: the question is asked only when smoker is \"Yes\", and the report's open answers say "
        "otherwise, so it must not be answered");
  forged["responses"].erase("smoker");  // smoker skipped? it is required: refused for that first
  CHECK(ParseReport(survey, forged).error() == "responses.smoker: missing response");
}

TEST_CASE("conditions: results count a follow-up's n over those asked, and say when it is asked") {
  const Survey survey = Parsed(SurveyWith(FollowUp(json::parse(R"({"question": "smoker", "any_of": ["Yes"]})"))));
  SurveyAggregate aggregate(survey);
  SeededRandom random(3);
  for (int r = 0; r < 10; ++r) {
    json answers = {{"smoker", r < 4 ? 0 : 2}, {"age", 40}, {"drugs", 1}, {"trust", 0}};
    if (r < 4) answers["packs"] = 0;
    auto report = PerturbAnswers(survey, answers, random);
    REQUIRE(report.ok());
    aggregate.Add(*ParseReport(survey, *report));
  }
  const json results = SurveyResultsToJson(survey, aggregate);
  CHECK(results["respondents"] == 10);
  const json& packs = results["questions"][4];
  CHECK(packs["n"] == 4);
  CHECK(packs["asked_only_when"] == "smoker is \"Yes\"");
  CHECK(packs["show_if"] == json::parse(R"({"question": "smoker", "any_of": ["Yes"]})"));
  CHECK_FALSE(results["questions"][3].contains("asked_only_when"));
}

TEST_CASE("conditions: simulate asks a follow-up only of respondents whose drawn open answer shows it") {
  json document = SurveyWith(FollowUp(json::parse(R"({"question": "smoker", "any_of": ["Yes", "Sometimes"]})")));
  document["questions"].erase(3);  // no confidential question: its truth is beside the point
  const Survey survey = Parsed(document);
  const json truth = json::parse(R"({
    "smoker": {"frequencies": [0.2, 0.1, 0.7]}, "age": {"values": [30, 50]},
    "drugs": {"frequencies": [0.3, 0.7]}, "packs": {"frequencies": [0.5, 0.5]}})");
  SimulationOptions options;
  options.respondents = 4000;
  options.seed = 11;
  std::int64_t shown = 0;
  options.on_respondent = [&shown](const json& answers, const Report& report) {
    const bool asked = answers.contains("packs");
    CHECK(asked == (answers.at("smoker") != 2));
    CHECK((report.responses.back() != nullptr) == asked);
    shown += asked ? 1 : 0;
  };
  auto result = Simulate(survey, truth, options);
  REQUIRE_MESSAGE(result.ok(), result.error());
  CHECK((*result)["questions"][3]["n"] == shown);
  // Binomial(4000, 0.3): sd = sqrt(4000 * 0.3 * 0.7) = 29; 5 sd either side.
  CHECK(shown > 1200 - 145);
  CHECK(shown < 1200 + 145);
}
