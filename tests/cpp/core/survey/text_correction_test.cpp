// Live corrections (core/survey/text_correction.h): each change of wording is
// listed with its path and words before and after; each other change is
// refused, naming the first difference and why it needs a new version.
#include "core/survey/text_correction.h"

#include <doctest/doctest.h>

#include "core/survey/aggregate.h"
#include "core/survey/aggregate_format.h"

using namespace deniable;
using nlohmann::json;

namespace {

json Running() {
  return json::parse(R"({
    "format": "deniable.survey/v1", "id": "s1", "version": 2, "title": "Habits", "description": "About you.",
    "results": "public",
    "questions": [
      {"id": "drug", "text": "Did you use a drug?", "options": ["Yes", "No"], "mechanism": {"name": "grr", "epsilon": 1}},
      {"id": "age", "text": "Your age?", "type": "numeric", "range": [18, 90],
       "mechanism": {"name": "piecewise", "epsilon": 1}}
    ]})");
}

Survey Parsed(const json& document) {
  auto survey = ParseSurvey(document);
  REQUIRE_MESSAGE(survey.ok(), (survey.ok() ? "" : survey.error()));
  return std::move(survey).value();
}

std::vector<WordingChange> Changes(const json& proposed) {
  auto changes = CompareWording(Parsed(Running()), proposed);
  REQUIRE_MESSAGE(changes.ok(), (changes.ok() ? "" : changes.error()));
  return *changes;
}

std::string Refusal(const json& proposed) {
  auto changes = CompareWording(Parsed(Running()), proposed);
  REQUIRE_FALSE(changes.ok());
  CHECK(changes.error_code() == ErrorCode::kConflict);
  return changes.error();
}

}  // namespace

TEST_CASE("corrections: the same definition has no changes, whatever defaults it leaves out") {
  CHECK(Changes(Running()).empty());
  json same = Running();
  same["questions"][0]["type"] = "categorical";  // the default, written out
  CHECK(Changes(same).empty());
}

TEST_CASE("corrections: the title, description, a question's text and an option's words are wording") {
  json proposed = Running();
  proposed["title"] = "Habits and health";
  proposed["description"] = "";
  proposed["questions"][0]["text"] = "Have you used a recreational drug?";
  proposed["questions"][0]["options"][1] = "No, never";
  const auto changes = Changes(proposed);
  REQUIRE(changes.size() == 4);
  CHECK(changes[0].path == "description");
  CHECK(changes[0].before == "About you.");
  CHECK(changes[0].after == "");
  CHECK(changes[1].path == "title");
  CHECK(changes[1].where == "title");
  CHECK(changes[1].before == "Habits");
  CHECK(changes[1].after == "Habits and health");
  CHECK(changes[2].path == "questions[0].options[1]");
  CHECK(changes[2].where == "question \"drug\": option 2");
  CHECK(changes[2].before == "No");
  CHECK(changes[2].after == "No, never");
  CHECK(changes[3].path == "questions[0].text");
  CHECK(changes[3].where == "question \"drug\": text");
  CHECK(changes[3].after == "Have you used a recreational drug?");
  CHECK(WordingChangesToJson(changes)[2] ==
        json({{"path", "questions[0].options[1]"}, {"where", "question \"drug\": option 2"}, {"before", "No"},
              {"after", "No, never"}}));
}

TEST_CASE("corrections: an option's letter case may be corrected in place") {
  json proposed = Running();
  proposed["questions"][0]["options"][0] = "yes";
  const auto changes = Changes(proposed);
  REQUIRE(changes.size() == 1);
  CHECK(changes[0].path == "questions[0].options[0]");
}

TEST_CASE("corrections: the options' number or order needs a new version, and says why") {
  json more = Running();
  more["questions"][0]["options"].push_back("Maybe");
  CHECK(Refusal(more) ==
        "questions[0].options: the options' number changed (2 to 3): reports already collected would be counted "
        "against different options; publish a new version instead");
  json swapped = Running();
  swapped["questions"][0]["options"] = {"No", "Yes"};
  CHECK(Refusal(swapped) ==
        "questions[0].options: the options' order changed (\"No\" was at 2, now at 1): reports already collected "
        "would be counted against different options; publish a new version instead");
  json moved = Running();
  moved["questions"][0]["options"] = {"no", "Nope"};  // "no" is option 2's words in option 1's place
  CHECK(Refusal(moved).find("the options' order changed (\"no\" was at 2, now at 1)") != std::string::npos);
}

TEST_CASE("corrections: a mechanism or an epsilon needs a new version: the privacy promise would change") {
  json mechanism = Running();
  mechanism["questions"][0]["mechanism"] = {{"name", "oue"}, {"epsilon", 1}};
  CHECK(Refusal(mechanism) ==
        "questions[0].mechanism.name: the mechanism changed (\"grr\" to \"oue\"): the privacy promise given to "
        "earlier respondents would change; publish a new version instead");
  json epsilon = Running();
  epsilon["questions"][1]["mechanism"]["epsilon"] = 2;
  CHECK(Refusal(epsilon) ==
        "questions[1].mechanism.epsilon: the epsilon changed (1.0 to 2.0): the privacy promise given to earlier "
        "respondents would change; publish a new version instead");
}

TEST_CASE("corrections: questions, ids, types, ranges, rules and the survey's settings need a new version") {
  json added = Running();
  added["questions"].push_back(added["questions"][0]);
  added["questions"][2]["id"] = "drug2";
  CHECK(Refusal(added) == "questions: the number of questions changed (2 to 3): reports already collected answer the "
                          "questions as they were; publish a new version instead");
  json renamed = Running();
  renamed["questions"][0]["id"] = "drugs";
  CHECK(Refusal(renamed) == "questions[0].id: the question's id changed (\"drug\" to \"drugs\"): reports name their "
                            "questions by id; publish a new version instead");
  json range = Running();
  range["questions"][1]["range"] = {18, 99};
  CHECK(Refusal(range).rfind("questions[1].range: changed ([18.0,90.0] to [18.0,99.0]): only wording", 0) == 0);
  json optional = Running();
  optional["questions"][0]["required"] = false;
  CHECK(Refusal(optional).rfind("questions[0].required: whether the question may be skipped changed", 0) == 0);
  json version = Running();
  version["version"] = 3;
  CHECK(Refusal(version) == "version: the version changed (2 to 3): a correction keeps the version that reports "
                            "name; publish a new version instead");
  json id = Running();
  id["id"] = "s2";
  CHECK(Refusal(id).rfind("id: the survey's id changed (\"s1\" to \"s2\")", 0) == 0);
  json results = Running();
  results["results"] = "admin";
  CHECK(Refusal(results).rfind("results: changed (\"public\" to \"admin\"): only wording", 0) == 0);
}

TEST_CASE("corrections: an invalid definition is refused with the parser's message, as invalid") {
  json invalid = Running();
  invalid["questions"][0]["options"][1] = "";
  auto changes = CompareWording(Parsed(Running()), invalid);
  REQUIRE_FALSE(changes.ok());
  CHECK(changes.error_code() == ErrorCode::kInvalidArgument);
  CHECK(changes.error() == "questions[0].options[1]: must be a non-empty string of at most 500 bytes");
}

TEST_CASE("corrections: the wording fields are a capability of the kind (texts and options by default)") {
  const Survey survey = Parsed(Running());
  const WordingFields fields = survey.questions[0].client->wording_fields();
  CHECK(fields.texts == std::vector<std::string>{"text", "description", "help"});
  CHECK(fields.lists == std::vector<std::string>{"options"});
}

TEST_CASE("corrections: an aggregate's blob survives a correction of the words, not of the options' number") {
  const Survey running = Parsed(Running());
  SurveyAggregate aggregate(running);
  const std::string blob = SerializeSurveyAggregate(running, aggregate);
  json reworded = Running();
  reworded["questions"][0]["options"][1] = "No, never";
  CHECK(DeserializeSurveyAggregate(Parsed(reworded), blob).ok());
  json more = Running();
  more["questions"][0]["options"].push_back("Maybe");
  auto refused = DeserializeSurveyAggregate(Parsed(more), blob);
  REQUIRE_FALSE(refused.ok());
  CHECK(refused.error().find("another definition of the question") != std::string::npos);

  // A blob written before wording-free fingerprints hashes the words: checked against them until the wording is corrected.
  json legacy = json::parse(blob);
  legacy["questions"][0]["definition"] = "fnv1a64:0000000000000000";
  CHECK_FALSE(DeserializeSurveyAggregate(Parsed(reworded), legacy.dump()).ok());
  CHECK(DeserializeSurveyAggregate(Parsed(reworded), legacy.dump(), LegacyFingerprint::kShapeOnly).ok());
}

TEST_CASE("corrections: a grid's items and scale are its lists of words (count and order fixed)") {
  json running = Running();
  running["questions"].push_back(json::parse(R"({"id": "agree", "text": "How much do you agree?", "type": "grid",
    "items": ["My work is valued", "I would recommend this employer"],
    "scale": ["Disagree", "Neutral", "Agree"], "mechanism": {"name": "ordinal", "epsilon": 2}})"));
  const Survey survey = Parsed(running);
  json proposed = running;
  proposed["questions"][2]["items"][0] = "My work is appreciated";
  proposed["questions"][2]["scale"][2] = "Agree fully";
  auto changes = CompareWording(survey, proposed);
  REQUIRE(changes.ok());
  REQUIRE(changes->size() == 2);
  CHECK((*changes)[0].path == "questions[2].items[0]");
  CHECK((*changes)[0].after == "My work is appreciated");
  CHECK((*changes)[1].path == "questions[2].scale[2]");

  json fewer = running;
  fewer["questions"][2]["scale"] = json::array({"Disagree", "Agree"});
  auto refused = CompareWording(survey, fewer);
  REQUIRE_FALSE(refused.ok());
  CHECK(refused.error_code() == ErrorCode::kConflict);
  CHECK(refused.error().find("the scale's number changed (3 to 2)") != std::string::npos);
}

TEST_CASE("corrections: rewording an option a condition names keeps the condition; changing the condition needs a new version") {
  json running = Running();
  running["questions"].push_back(json::parse(R"({"id": "smoker", "text": "Do you smoke?", "privacy": "open",
    "options": ["Yes", "No"]})"));
  running["questions"].push_back(json::parse(R"({"id": "cigarettes", "text": "How many a day?", "type": "numeric",
    "range": [0, 60], "mechanism": {"name": "piecewise", "epsilon": 1},
    "show_if": {"question": "smoker", "any_of": ["Yes"]}})"));
  const Survey survey = Parsed(running);

  json reworded = running;
  reworded["questions"][2]["options"][0] = "Yes, daily";
  reworded["questions"][3]["show_if"]["any_of"][0] = "Yes, daily";
  auto changes = CompareWording(survey, reworded);
  REQUIRE_MESSAGE(changes.ok(), (changes.ok() ? "" : changes.error()));
  REQUIRE(changes->size() == 1);
  CHECK((*changes)[0].path == "questions[2].options[0]");

  json widened = running;
  widened["questions"][3]["show_if"]["any_of"] = json::array({"Yes", "No"});
  auto refused = CompareWording(survey, widened);
  REQUIRE_FALSE(refused.ok());
  CHECK(refused.error_code() == ErrorCode::kConflict);
  CHECK(refused.error().find("questions[3].show_if: the condition changed") == 0);
}
