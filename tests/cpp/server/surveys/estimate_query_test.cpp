// EstimateOptionsKey: the results cache's key for a request's options. Equal
// options give equal keys however they are spelled (a default given
// explicitly is the default), other options other keys, a malformed value an
// error naming it.
#include "server/surveys/estimate_query.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <string>

namespace deniable::server {
namespace {

std::string Key(const Survey* survey, const nlohmann::json& options) {
  const Result<std::string> key = EstimateOptionsKey(survey, options);
  REQUIRE(key.ok());
  return *key;
}

Survey OneQuestion(const std::string& id) {
  Survey survey;
  survey.questions.push_back(Question{id, "A question?"});
  return survey;
}

}  // namespace

TEST_CASE("estimate query: the default key is the key of no options and of the defaults spelled out") {
  const std::string defaults = DefaultEstimateOptionsKey();
  CHECK(Key(nullptr, nlohmann::json::object()) == defaults);
  CHECK(Key(nullptr, {{"interval", "population"}}) == defaults);
  const Survey survey = OneQuestion("q1");
  CHECK(Key(&survey, nlohmann::json::object()) == defaults);
  CHECK(Key(&survey, {{"interval", "population"}}) == defaults);
  // Another value is another document.
  const std::string respondents = Key(&survey, {{"interval", "respondents"}});
  CHECK(respondents != defaults);
  CHECK(Key(nullptr, {{"interval", "respondents"}}) == respondents);
}

TEST_CASE("estimate query: a question's own options make their own key; without the survey they are not read") {
  const Survey survey = OneQuestion("q1");
  const std::string defaults = DefaultEstimateOptionsKey();
  const std::string own = Key(&survey, {{"q1.interval", "respondents"}});
  CHECK(own != defaults);
  CHECK(own != Key(&survey, {{"interval", "respondents"}}));
  // Given explicitly, even equal to the default, a question's options are a key of their own.
  CHECK(Key(&survey, {{"q1.interval", "population"}}) != defaults);
  // Options of a question the survey does not have, or with no survey given, change nothing.
  CHECK(Key(&survey, {{"q2.interval", "respondents"}}) == defaults);
  CHECK(Key(nullptr, {{"q1.interval", "respondents"}}) == defaults);
}

TEST_CASE("estimate query: a malformed value is an error, named with its question") {
  const Survey survey = OneQuestion("q1");
  const Result<std::string> shared = EstimateOptionsKey(&survey, {{"interval", "everyone"}});
  REQUIRE_FALSE(shared.ok());
  CHECK(shared.error().find("interval") != std::string::npos);
  const Result<std::string> own = EstimateOptionsKey(&survey, {{"q1.interval", "everyone"}});
  REQUIRE_FALSE(own.ok());
  CHECK(own.error().rfind("q1.", 0) == 0);
  CHECK(own.error() == "q1." + shared.error());
}

TEST_CASE("estimate query: the public option names start with \"interval\", each once") {
  const std::vector<std::string> names = PublicEstimateOptionNames();
  REQUIRE_FALSE(names.empty());
  CHECK(names.front() == "interval");
  for (const std::string& name : names) {
    CAPTURE(name);
    CHECK(std::count(names.begin(), names.end(), name) == 1);
  }
}

}  // namespace deniable::server
