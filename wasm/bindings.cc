// The WebAssembly face of core: Embind functions that take and return JSON
// text, so the boundary carries only strings and numbers. Every function
// returns {"ok":true,"value":...} or {"ok":false,"error":"<core's message>"};
// nothing throws across the boundary (the module is built with
// -fno-exceptions: nlohmann-json would abort instead of throwing, and no path
// below reaches a throwing call on user input). web/src/core.js is the only
// caller; it turns {"ok":false} into a JavaScript Error.
//
// No mechanism logic lives here: parsing, perturbation and advice are core's.

#include <emscripten/bind.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "core/frequency/advisor.h"
#include "core/kinds/categorical/group_power.h"
#include "core/common/json_fields.h"
#include "core/common/json_text.h"
#include "core/common/os_random.h"
#include "core/survey/report.h"
#include "core/common/result.h"
#include "core/common/seeded_random.h"
#include "core/survey/kind_registry.h"
#include "core/survey/survey.h"
#include "core/common/validation.h"
#include "core/oprf/voprf.h"

#ifndef DENIABLE_VERSION
#error "DENIABLE_VERSION must be defined by wasm/build.sh (the project version from CMakeLists.txt)"
#endif

namespace deniable::wasm {
namespace {

using nlohmann::json;

// Definitions and answers nest at most 4 levels. The limit keeps hostile input
// from driving recursion (core's error messages dump() values, and dump
// recurses) deep enough to exhaust the stack: the engine would trap, killing
// the instance, or the C stack in linear memory would silently overrun.
constexpr int kMaxJsonDepth = 16;

// The envelope core.js unwraps. Invalid UTF-8 cannot come out of
// ParseJsonArgument, but replacing it keeps dump() from ever throwing.
std::string Envelope(const json& envelope) {
  return envelope.dump(-1, ' ', false, json::error_handler_t::replace);
}

std::string Success(const json& value) { return Envelope({{"ok", true}, {"value", value}}); }
std::string Failure(const std::string& message) { return Envelope({{"ok", false}, {"error", message}}); }

template <typename T>
std::string Respond(const Result<T>& result, json (*to_json)(const T&)) {
  return result ? Success(to_json(*result)) : Failure(result.error());
}

Result<json> ParseJsonArgument(const std::string& text, const std::string& name) {
  return ParseJsonText(text, kMaxJsonDepth, name);
}

Result<Survey> ParseDefinition(const std::string& definition_json) {
  DENIABLE_ASSIGN_OR_RETURN(auto document, ParseJsonArgument(definition_json, "the survey definition"));
  return ParseSurvey(document);
}

json OptionalNumber(const std::optional<double>& value) { return value ? json(*value) : json(nullptr); }

// What the page needs of a question: its kind's page summary (e.g. p and q)
// with the fields every kind has.
json QuestionSummaryToJson(const Question& question) {
  json summary = question.kind->PageSummary();
  summary["id"] = question.id;
  summary["type"] = question.kind->type();
  summary["required"] = question.required;
  summary["epsilon"] = OptionalNumber(question.epsilon());
  summary["privacy"] = question.kind->PrivacyToJson();
  return summary;
}

json SurveySummaryToJson(const Survey& survey) {
  auto questions = json::array();
  for (const auto& question : survey.questions) questions.push_back(QuestionSummaryToJson(question));
  return {{"survey", SurveyToJson(survey)},
          {"total_epsilon", OptionalNumber(TotalEpsilon(survey))},
          {"questions", questions}};
}

json Identity(const json& value) { return value; }

Result<json> PerturbWith(const std::string& definition_json, const std::string& answers_json,
                         RandomSource& random) {
  DENIABLE_ASSIGN_OR_RETURN(auto survey, ParseDefinition(definition_json));
  DENIABLE_ASSIGN_OR_RETURN(auto answers, ParseJsonArgument(answers_json, "answers"));
  return PerturbAnswers(survey, answers, random);
}

// Strict: 1 to 20 decimal digits, no sign, no spaces, no leading zeros, at
// most 2^64 - 1. One seed has exactly one spelling.
Result<std::uint64_t> ParseSeed(const std::string& text) {
  const auto invalid = [&text] {
    return MakeError("seed must be a decimal integer between 0 and 18446744073709551615 without sign, spaces or "
                     "leading zeros, but is \"" + text + "\"");
  };
  if (text.empty() || text.size() > 20 || (text.size() > 1 && text[0] == '0')) return invalid();
  std::uint64_t value = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return invalid();
    const auto digit = static_cast<std::uint64_t>(c - '0');
    if (value > (std::numeric_limits<std::uint64_t>::max() - digit) / 10) return invalid();
    value = value * 10 + digit;
  }
  return value;
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

// --- blind tokens: the page's side of RFC 9497's VOPRF (core/oprf/voprf.h)

// A token input is hex of any length RFC 9497 allows (the page draws
// oprf::kTokenInputBytes; the RFC's test vectors use 1 and 17 bytes). Core
// checks the digits and the length.
Result<oprf::Bytes> TokenInputFromHex(std::string_view hex, std::string_view what) {
  if (hex.size() % 2 != 0) {
    return MakeError(std::string(what) + ": expected an even number of hexadecimal characters, got " +
                     std::to_string(hex.size()));
  }
  return oprf::FromHex(hex, hex.size() / 2, what);
}

// A required hex field of `object`, decoded by `from_hex` (which names the field in its messages).
template <typename T>
Result<T> HexField(const json& object, const char* name, const std::string& where,
                   Result<T> (*from_hex)(std::string_view, std::string_view)) {
  DENIABLE_ASSIGN_OR_RETURN(auto hex, ReadString(object, name, 2 * 65535, true, where));
  return from_hex(hex, JoinPath(where, name));
}

json BlindedTokenToJson(const oprf::Bytes& input, const oprf::BlindedInput& blinded) {
  return {{"input", oprf::ToHex(input)},
          {"blind", oprf::ToHex(blinded.blind)},
          {"blinded_element", oprf::ToHex(blinded.blinded_element)}};
}

Result<json> TokenBlindWith(const std::string& input_hex, const std::string& blind_hex) {
  DENIABLE_ASSIGN_OR_RETURN(auto input, TokenInputFromHex(input_hex, "input"));
  DENIABLE_ASSIGN_OR_RETURN(auto blind, oprf::ScalarFromHex(blind_hex, "blind"));
  DENIABLE_ASSIGN_OR_RETURN(auto blinded, oprf::BlindWith(input, blind));
  return BlindedTokenToJson(input, blinded);
}

// A fresh token: core's random input, then a random blind, both from `random`.
Result<json> TokenBlind(RandomSource& random) {
  const oprf::Bytes input = oprf::RandomTokenInput(random);
  DENIABLE_ASSIGN_OR_RETURN(auto blinded, oprf::Blind(input, random));
  return BlindedTokenToJson(input, blinded);
}

// {input, blind, blinded_element, evaluated_element, proof: {c, s}, public_key}
// (hex strings, nothing else) -> {output}, once the proof verifies.
Result<json> TokenFinalize(const std::string& token_json) {
  DENIABLE_ASSIGN_OR_RETURN(auto token, ParseJsonArgument(token_json, "the token"));
  DENIABLE_TRY(RequireObject(token, "token"));
  DENIABLE_TRY(RejectUnknownFields(
      token, {"input", "blind", "blinded_element", "evaluated_element", "proof", "public_key"}, "token"));
  if (!token.contains("proof")) return MakeError("token.proof: required field is missing");
  const json& proof = token.at("proof");
  DENIABLE_TRY(RequireObject(proof, "token.proof"));
  DENIABLE_TRY(RejectUnknownFields(proof, {"c", "s"}, "token.proof"));
  DENIABLE_ASSIGN_OR_RETURN(auto input, HexField(token, "input", "token", &TokenInputFromHex));
  oprf::BlindedInput blinded;
  DENIABLE_ASSIGN_OR_RETURN(blinded.blind, HexField(token, "blind", "token", &oprf::ScalarFromHex));
  DENIABLE_ASSIGN_OR_RETURN(blinded.blinded_element,
                            HexField(token, "blinded_element", "token", &oprf::ElementFromHex));
  oprf::Evaluation evaluation;
  DENIABLE_ASSIGN_OR_RETURN(evaluation.evaluated_element,
                            HexField(token, "evaluated_element", "token", &oprf::ElementFromHex));
  DENIABLE_ASSIGN_OR_RETURN(evaluation.proof.c, HexField(proof, "c", "token.proof", &oprf::ScalarFromHex));
  DENIABLE_ASSIGN_OR_RETURN(evaluation.proof.s, HexField(proof, "s", "token.proof", &oprf::ScalarFromHex));
  DENIABLE_ASSIGN_OR_RETURN(auto public_key, HexField(token, "public_key", "token", &oprf::ElementFromHex));
  DENIABLE_ASSIGN_OR_RETURN(auto output, oprf::Finalize(input, blinded, evaluation, public_key));
  return json{{"output", oprf::ToHex(output)}};
}

}  // namespace

std::string Version() { return DENIABLE_VERSION; }

std::string ParseSurveyJson(const std::string& definition_json) {
  return Respond(ParseDefinition(definition_json), &SurveySummaryToJson);
}

// Production path: OsRandom is getentropy, which Emscripten implements with
// crypto.getRandomValues (see the check in wasm/build.sh).
std::string PerturbJson(const std::string& definition_json, const std::string& answers_json) {
  OsRandom random;
  return Respond(PerturbWith(definition_json, answers_json, random), &Identity);
}

// Deterministic, for test vectors only: a seeded report is NOT private.
std::string PerturbSeededJson(const std::string& definition_json, const std::string& answers_json,
                              const std::string& seed_text) {
  auto seed = ParseSeed(seed_text);
  if (!seed) return Failure(seed.error());
  SeededRandom random(*seed);
  return Respond(PerturbWith(definition_json, answers_json, random), &Identity);
}

// What a respondent's privacy choices give for one question
// (QuestionKind::PrivacyOfChoices: a block's epsilon per attribute from the
// answered set and sensitivities), computed without any answer.
std::string PrivacyOfChoicesJson(const std::string& definition_json, const std::string& question_id,
                                 const std::string& choices_json) {
  auto survey = ParseDefinition(definition_json);
  if (!survey) return Failure(survey.error());
  auto choices = ParseJsonArgument(choices_json, "choices");
  if (!choices) return Failure(choices.error());
  for (const Question& question : survey->questions) {
    if (question.id == question_id) return Respond(question.kind->PrivacyOfChoices(*choices), &Identity);
  }
  return Failure("the survey has no question \"" + question_id + "\"");
}

// A question's design advice (QuestionKind::DesignAdvice) for `respondents`
// expected answers: null when its kind has none.
std::string DesignAdviceJson(const std::string& definition_json, const std::string& question_id, double respondents) {
  auto survey = ParseDefinition(definition_json);
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
  auto survey = ParseDefinition(definition_json);
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

// The registered kinds' type names (the conformance test checks each has vectors).
std::string KindTypesJson() {
  json types = json::array();
  for (const auto& kind : RegisteredKinds()) types.push_back(kind.type);
  return Success(types);
}

std::string AdviseJson(double options, double epsilon, double respondents) {
  return Respond(AdviseChecked(options, epsilon, respondents), &AdviceToJson);
}

// Blind tokens (core/oprf/voprf.h), the page's side. Production: the input and
// the blind from OsRandom (getentropy = crypto.getRandomValues).
std::string TokenBlindJson() {
  OsRandom random;
  return Respond(TokenBlind(random), &Identity);
}

// Deterministic, for RFC 9497's test vectors and tests only.
std::string TokenBlindWithJson(const std::string& input_hex, const std::string& blind_hex) {
  return Respond(TokenBlindWith(input_hex, blind_hex), &Identity);
}

// Verifies the server's proof against the survey's public key, then unblinds: the token's output.
std::string TokenFinalizeJson(const std::string& token_json) { return Respond(TokenFinalize(token_json), &Identity); }

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
