// The survey definition: validation messages name the field and the problem;
// the canonical form round-trips; epsilon composes sequentially.
#include <doctest/doctest.h>

#include "core/survey/survey.h"

using namespace deniable;
using nlohmann::json;

namespace {

json ValidSurvey() {
  return json::parse(R"({
    "format": "deniable.survey/v1", "id": "s1", "version": 2, "title": "T",
    "questions": [
      {"id": "a", "text": "A?", "options": ["x", "y"], "mechanism": {"name": "grr", "epsilon": 1}},
      {"id": "b", "text": "B?", "type": "categorical", "options": ["u", "v", "w"],
       "mechanism": {"name": "negative", "epsilon": 0.5, "reported_options": 1}}
    ]})");
}

std::string ErrorOf(const json& document) {
  auto survey = ParseSurvey(document);
  REQUIRE_FALSE(survey.ok());
  return survey.error();
}

}  // namespace

TEST_CASE("a valid survey parses with defaults and sums epsilon") {
  auto survey = ParseSurvey(ValidSurvey());
  REQUIRE(survey.ok());
  CHECK(survey->id == "s1");
  CHECK(survey->version == 2);
  CHECK(survey->results == ResultsVisibility::kAdmin);  // admin-only unless the definition says "public"
  CHECK(survey->access == Access::kOpen);
  CHECK(survey->questions.size() == 2);
  CHECK(*TotalEpsilon(*survey) == doctest::Approx(1.5));
  CHECK(survey->QuestionIndex("b") == std::optional<std::size_t>(1));
  CHECK_FALSE(survey->QuestionIndex("zzz").has_value());
}

TEST_CASE("the canonical form round-trips") {
  auto survey = ParseSurvey(ValidSurvey());
  const json canonical = SurveyToJson(*survey);
  auto again = ParseSurvey(canonical);
  REQUIRE(again.ok());
  CHECK(SurveyToJson(*again) == canonical);
  CHECK(canonical["results"] == "admin");
  CHECK(canonical["questions"][1]["mechanism"] == json::parse(R"({"name":"negative","epsilon":0.5,"reported_options":1})"));
}

TEST_CASE("a pure negative survey question has no formal epsilon, and neither has the survey") {
  json document = ValidSurvey();
  document["questions"][1]["mechanism"].erase("epsilon");
  auto survey = ParseSurvey(document);
  REQUIRE(survey.ok());
  CHECK_FALSE(TotalEpsilon(*survey).has_value());
  const json privacy = survey->questions[1].kind->PrivacyToJson();
  CHECK(privacy["epsilon"].is_null());
  CHECK(privacy["note"].get<std::string>().rfind("no formal epsilon", 0) == 0);
}

TEST_CASE("invalid definitions are rejected with the field and the problem") {
  auto with = [](const std::function<void(json&)>& edit) { json d = ValidSurvey(); edit(d); return ErrorOf(d); };
  CHECK(ErrorOf(json::array()) == "the document must be a JSON object, but is array");
  CHECK(with([](json& d) { d.erase("title"); }) == "title: required field is missing");
  CHECK(with([](json& d) { d["title"] = ""; }) == "title: must not be empty");
  CHECK(with([](json& d) { d["title"] = 5; }) == "title: must be a string, but is number");
  CHECK(with([](json& d) { d["format"] = "v0"; }) == "format: must be \"deniable.survey/v1\", but is \"v0\"");
  CHECK(with([](json& d) { d["id"] = "has space"; }) ==
        "id: must be 1 to 64 characters from A-Z, a-z, 0-9, _ and -, but is \"has space\"");
  CHECK(with([](json& d) { d["version"] = 0; }) == "version: must be between 1 and 1000000, but is 0");
  CHECK(with([](json& d) { d["version"] = "1"; }) == "version: must be an integer, but is \"1\"");
  CHECK(with([](json& d) { d["results"] = "private"; }) ==
        "results: must be \"admin\" or \"public\", but is \"private\"");
  CHECK(with([](json& d) { d["access"] = "closed"; }) ==
        "access: must be \"open\" or \"invitation\", but is \"closed\"");
  CHECK(with([](json& d) { d["titel"] = "x"; }) ==
        "titel: unknown field (expected one of format, id, version, title, description, language, results, access, questions, analyses)");
  CHECK(with([](json& d) { d["questions"] = json::array(); }) == "questions: must be an array of 1 to 200 questions");
  CHECK(with([](json& d) { d["questions"][1]["id"] = "a"; }) == "questions[1].id: duplicate question id \"a\"");
  CHECK(with([](json& d) { d["questions"][0]["options"] = {"x"}; }) ==
        "questions[0].options: must be an array of 2 to 4096 option labels");
  CHECK(with([](json& d) { d["questions"][0]["options"] = {"x", "x"}; }) ==
        "questions[0].options[1]: duplicate option \"x\"");
  CHECK(with([](json& d) { d["questions"][0]["options"] = {"x", ""}; }) ==
        "questions[0].options[1]: must be a non-empty string of at most 500 bytes");
  CHECK(with([](json& d) { d["questions"][0]["type"] = "ordinal"; }) ==
        "questions[0].type: unknown question type \"ordinal\" (expected categorical, numeric, histogram, block, linear_regression, grid or multiple)");
  CHECK(with([](json& d) { d["questions"][0].erase("mechanism"); }) == "questions[0].mechanism: required field is missing");
  CHECK(with([](json& d) { d["questions"][0]["mechanism"]["name"] = "laplace"; }) ==
        "questions[0].mechanism.name: unknown mechanism \"laplace\" (expected one of grr, oue, sue, negative)");
  CHECK(with([](json& d) { d["questions"][0]["mechanism"]["epsilon"] = 0; }) ==
        "questions[0].mechanism.epsilon: epsilon must be finite and in [0.01, 30], but is 0");
  CHECK(with([](json& d) { d["questions"][0]["mechanism"]["epsilon"] = "1"; }) ==
        "questions[0].mechanism.epsilon: must be a number, but is \"1\"");
  CHECK(with([](json& d) { d["questions"][0]["mechanism"].erase("epsilon"); }) ==
        "questions[0].mechanism: epsilon is required for grr");
  CHECK(with([](json& d) { d["questions"][1]["mechanism"]["reported_options"] = 3; }) ==
        "questions[1].mechanism: reported_options must be between 1 and 2, but is 3");
  CHECK(with([](json& d) { d["questions"][0]["mechanism"]["reported_options"] = 1; }) ==
        "questions[0].mechanism.reported_options: applies only to the negative survey");
  CHECK(with([](json& d) { d["version"] = 18446744073709551615ULL; }) ==
        "version: must be between 1 and 1000000, but is 18446744073709551615");
  CHECK(with([](json& d) { d["questions"][0]["mechanism"]["epsilom"] = 1; }) ==
        "questions[0].mechanism.epsilom: unknown field (expected one of name, epsilon, reported_options)");
  CHECK(ParseSurveyText("{not json").error() == "the survey is not valid JSON");
}

TEST_CASE("a survey's language is a BCP 47 tag, kept in the canonical form only when given") {
  auto document = ValidSurvey();
  CHECK(!SurveyToJson(*ParseSurvey(document)).contains("language"));
  for (const char* tag : {"fr", "pt-BR", "zh-Hant-TW", "es-419"}) {
    document["language"] = tag;
    auto survey = ParseSurvey(document);
    REQUIRE(survey.ok());
    CHECK(survey->language == tag);
    CHECK(SurveyToJson(*survey)["language"] == tag);
    CHECK(SurveyToJson(*ParseSurvey(SurveyToJson(*survey))) == SurveyToJson(*survey));
  }
  for (const char* tag : {"f", "french", "en_GB", "en-", "-en", "12", "en--GB", "en-toolongsubtag"}) {
    document["language"] = tag;
    CHECK(ErrorOf(document) ==
          std::string("language: must be a language tag such as \"en\", \"fr\" or \"pt-BR\", but is \"") + tag + "\"");
  }
}

TEST_CASE("options equal up to letter case or spaces are one option, refused with both named") {
  auto document = ValidSurvey();
  document["questions"][1]["options"] = {"Yes", "No", "  yes "};
  CHECK(ErrorOf(document) == "questions[1].options[2]: \"  yes \" is the same option as options[0] \"Yes\" (options "
                             "must differ by more than letter case or spaces)");
  document["questions"][1]["options"] = {"Very  good", "very good", "x"};
  CHECK(ErrorOf(document).find("questions[1].options[1]: \"very good\" is the same option as options[0]") == 0);
  document["questions"][1]["options"] = {"a", "b", "a"};
  CHECK(ErrorOf(document) == "questions[1].options[2]: duplicate option \"a\"");
  document["questions"][1]["options"] = {"a", "b", "   "};
  CHECK(ErrorOf(document) == "questions[1].options[2]: must not be blank");
  document["questions"][1]["options"] = {"Élan", "élan", "x"};  // letters outside ASCII are compared as written
  CHECK(ParseSurvey(document).ok());
}
