// The full WebAssembly module's face (web/src/generated/deniable_core.mjs, for
// the creation page): Embind functions over JSON text returning envelopes
// (envelope.h). The respondent's functions are client_api.cc's, shared with
// the client module; this file adds the builder's: the advisor, a question's
// design advice and the power of a two-group comparison. web/src/core.js is
// the only caller.
//
// No mechanism logic lives here: parsing, perturbation and advice are core's.

#include <emscripten/bind.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>

#include <nlohmann/json.hpp>

#include "core/common/result.h"
#include "core/common/validation.h"
#include "core/frequency/advisor.h"
#include "core/kinds/categorical/group_power.h"
#include "core/survey/survey.h"
#include "wasm/client_api.h"
#include "wasm/envelope.h"

namespace deniable::wasm {
namespace {

using nlohmann::json;

// The full parse: the builder's functions need the kinds' estimation side
// (design advice, group power).
Result<Survey> ParseFullDefinition(const std::string& definition_json) {
  DENIABLE_ASSIGN_OR_RETURN(auto document, ParseJsonArgument(definition_json, "the survey definition"));
  return ParseSurvey(document);
}

// A JavaScript number that must hold an integer (no fraction, not NaN, not
// beyond 2^53 where doubles stop counting exactly).
Result<std::int64_t> IntegerArgument(double value, const std::string& name) {
  constexpr double kMaxSafeInteger = 9007199254740991.0;
  if (!std::isfinite(value) || std::trunc(value) != value || std::fabs(value) > kMaxSafeInteger) {
    return MakeError(name + " must be an integer, but is " + FormatNumber(value));
  }
  return static_cast<std::int64_t>(value);
}

Result<Advice> AdviseChecked(double options, double epsilon, double respondents) {
  DENIABLE_ASSIGN_OR_RETURN(auto k, IntegerArgument(options, "options"));
  // Advise takes an int: rule out values that would not survive the narrowing.
  DENIABLE_TRY(ValidateIntInRange(k, std::numeric_limits<int>::min(), std::numeric_limits<int>::max(), "options"));
  DENIABLE_ASSIGN_OR_RETURN(auto n, IntegerArgument(respondents, "respondents"));
  return Advise(static_cast<int>(k), epsilon, n);
}

}  // namespace

// A question's design advice (QuestionKind::DesignAdvice) for `respondents`
// expected answers: null when its kind has none.
std::string DesignAdviceJson(const std::string& definition_json, const std::string& question_id, double respondents) {
  auto survey = ParseFullDefinition(definition_json);
  if (!survey) return Failure(survey.error());
  if (!(respondents >= 1.0 && respondents <= 1e12)) return Failure("respondents must be between 1 and 10^12");
  for (const Question& question : survey->questions) {
    if (question.id != question_id) continue;
    auto advice = question.kind->DesignAdvice(static_cast<std::int64_t>(respondents));
    return Success(advice ? *advice : json(nullptr));
  }
  return Failure("the survey has no question \"" + question_id + "\"");
}

// The respondents a comparison of two groups' shares of an option needs under
// a categorical question's mechanism and epsilon (group_power.h), for the
// builder's "Compare two groups".
std::string GroupPowerJson(const std::string& definition_json, const std::string& question_id, double p1, double p2,
                           double power, double alpha) {
  auto survey = ParseFullDefinition(definition_json);
  if (!survey) return Failure(survey.error());
  for (const Question& question : survey->questions) {
    if (question.id != question_id) continue;
    GroupPowerRequest request;
    request.p1 = p1;
    request.p2 = p2;
    request.power = power;
    request.alpha = alpha;
    auto plan = GroupComparisonPower(*question.kind, request);
    return plan ? Success(*plan) : Failure(plan.error());
  }
  return Failure("the survey has no question \"" + question_id + "\"");
}

std::string AdviseJson(double options, double epsilon, double respondents) {
  return Respond(AdviseChecked(options, epsilon, respondents), &AdviceToJson);
}

}  // namespace deniable::wasm

EMSCRIPTEN_BINDINGS(deniable_core) {
  emscripten::function("version", &deniable::wasm::Version);
  emscripten::function("parseSurveyJson", &deniable::wasm::ParseSurveyJson);
  emscripten::function("perturbJson", &deniable::wasm::PerturbJson);
  emscripten::function("perturbSeededJson", &deniable::wasm::PerturbSeededJson);
  emscripten::function("adviseJson", &deniable::wasm::AdviseJson);
  emscripten::function("kindTypesJson", &deniable::wasm::KindTypesJson);
  emscripten::function("designAdviceJson", &deniable::wasm::DesignAdviceJson);
  emscripten::function("groupPowerJson", &deniable::wasm::GroupPowerJson);
  emscripten::function("privacyOfChoicesJson", &deniable::wasm::PrivacyOfChoicesJson);
  emscripten::function("tokenBlindJson", &deniable::wasm::TokenBlindJson);
  emscripten::function("tokenBlindWithJson", &deniable::wasm::TokenBlindWithJson);
  emscripten::function("tokenFinalizeJson", &deniable::wasm::TokenFinalizeJson);
}
