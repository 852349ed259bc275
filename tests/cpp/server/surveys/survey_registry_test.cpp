// SurveyEntry's results refusals (server/surveys/survey_registry.h): a
// computation the request may not run comes back as an error of its kind
// (kConflict: the client already has one; kCancelled: the client is gone),
// not as an exception, and nothing is cached for it.
#include "server/surveys/survey_registry.h"

#include <doctest/doctest.h>

#include <atomic>
#include <memory>

namespace deniable::server {
namespace {

Survey NumericSurvey() {
  auto survey = ParseSurvey(nlohmann::json::parse(R"({
    "format": "deniable.survey/v1", "id": "s", "version": 1, "title": "T",
    "questions": [{"id": "age", "text": "Age?", "type": "numeric", "range": [0, 100],
                   "mechanism": {"name": "laplace", "epsilon": 1}}]})"));
  REQUIRE(survey);
  return *survey;
}

// Custom options: they take the custom lane and the per-client limit.
EstimateQuery CustomOptions() {
  nlohmann::json options = {{"interval", "respondents"}};
  auto key = EstimateOptionsKey(nullptr, options);
  REQUIRE(key);
  return {options, *key};
}

}  // namespace

TEST_CASE("a client's second computation is refused as a conflict, not thrown") {
  SurveyEntry entry(NumericSurvey());
  EstimationLimits limits;
  const auto held = limits.clients.TryClaim("192.0.2.1");  // the client's computation already running
  REQUIRE(held);
  EstimationRequester requester;
  requester.client = "192.0.2.1";
  const auto results = entry.Results(CustomOptions(), limits, requester);
  REQUIRE_FALSE(results);
  CHECK(results.error_code() == ErrorCode::kConflict);
  // The trusted admin is not limited per client.
  requester.trusted = true;
  const auto admin = entry.Results(CustomOptions(), limits, requester);
  REQUIRE(admin);
  CHECK(admin->computed);
}

TEST_CASE("a computation whose client is gone is refused as cancelled, and nothing is cached") {
  SurveyEntry entry(NumericSurvey());
  EstimationLimits limits;
  EstimationRequester requester;
  requester.client = "192.0.2.2";
  requester.client_gone = std::make_shared<std::atomic<bool>>(true);
  const auto results = entry.Results(CustomOptions(), limits, requester);
  REQUIRE_FALSE(results);
  CHECK(results.error_code() == ErrorCode::kCancelled);
  requester.client_gone = std::make_shared<std::atomic<bool>>(false);
  const auto again = entry.Results(CustomOptions(), limits, requester);
  REQUIRE(again);
  CHECK(again->computed);  // computed now: the refusal left nothing in the cache
}

TEST_CASE("an analysis refused for the client's limit is a conflict too") {
  SurveyEntry entry(NumericSurvey());
  EstimationLimits limits;
  const auto held = limits.clients.TryClaim("192.0.2.3");
  REQUIRE(held);
  EstimationRequester requester;
  requester.client = "192.0.2.3";
  const SurveyEntry::ReportReader nothing = [](const auto&, const auto&) { return OkStatus(); };
  const auto analysis = entry.Analysis(nlohmann::json{{"combinations", nlohmann::json::array({"age"})}},
                                       nlohmann::json::object(), nothing, limits, requester);
  REQUIRE_FALSE(analysis);
  CHECK(analysis.error_code() == ErrorCode::kConflict);
}

}  // namespace deniable::server
