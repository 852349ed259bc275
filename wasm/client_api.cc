// The respondent's side of core over JSON text (client_api.h). No mechanism
// logic lives here: parsing, perturbation and privacy texts are core's.
#include "wasm/client_api.h"

#include <cstdint>
#include <limits>
#include <string_view>

#include <nlohmann/json.hpp>

#include "core/common/json_fields.h"
#include "core/common/os_random.h"
#include "core/common/result.h"
#include "core/common/seeded_random.h"
#include "core/common/validation.h"
#include "core/oprf/voprf.h"
#include "core/survey/kind_registry.h"
#include "core/survey/report.h"
#include "core/survey/survey.h"
#include "wasm/envelope.h"

#ifndef DENIABLE_VERSION
#error "DENIABLE_VERSION must be defined by wasm/build.sh (the project version from CMakeLists.txt)"
#endif

namespace deniable::wasm {
namespace {

using nlohmann::json;

// The client parse (survey.h): only the questions' client halves, so the
// client module links no aggregation or estimation code.
Result<Survey> ParseDefinition(const std::string& definition_json) {
  DENIABLE_ASSIGN_OR_RETURN(auto document, ParseJsonArgument(definition_json, "the survey definition"));
  return ParseClientSurvey(document);
}

json OptionalNumber(const std::optional<double>& value) { return value ? json(*value) : json(nullptr); }

// What the page needs of a question: its kind's page summary (e.g. p and q)
// with the fields every kind has.
json QuestionSummaryToJson(const Question& question) {
  json summary = question.client->PageSummary();
  summary["id"] = question.id;
  summary["type"] = question.client->type();
  summary["required"] = question.required;
  summary["epsilon"] = OptionalNumber(question.epsilon());
  summary["privacy"] = question.client->PrivacyToJson();
  return summary;
}

json SurveySummaryToJson(const Survey& survey) {
  auto questions = json::array();
  for (const auto& question : survey.questions) questions.push_back(QuestionSummaryToJson(question));
  return {{"survey", SurveyToJson(survey)},
          {"total_epsilon", OptionalNumber(TotalEpsilon(survey))},
          {"questions", questions}};
}

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
// crypto.getRandomValues (wasm/entropy.js; checked by wasm/build.sh).
std::string PerturbJson(const std::string& definition_json, const std::string& answers_json) {
  OsRandom random;
  return Respond(PerturbWith(definition_json, answers_json, random), &Identity);
}

std::string PerturbSeededJson(const std::string& definition_json, const std::string& answers_json,
                              const std::string& seed_text) {
  auto seed = ParseSeed(seed_text);
  if (!seed) return Failure(seed.error());
  SeededRandom random(*seed);
  return Respond(PerturbWith(definition_json, answers_json, random), &Identity);
}

// Computed from the choices alone, without any answer (a block's epsilon per
// attribute from the answered set and sensitivities).
std::string PrivacyOfChoicesJson(const std::string& definition_json, const std::string& question_id,
                                 const std::string& choices_json) {
  auto survey = ParseDefinition(definition_json);
  if (!survey) return Failure(survey.error());
  auto choices = ParseJsonArgument(choices_json, "choices");
  if (!choices) return Failure(choices.error());
  for (const Question& question : survey->questions) {
    if (question.id == question_id) return Respond(question.client->PrivacyOfChoices(*choices), &Identity);
  }
  return Failure("the survey has no question \"" + question_id + "\"");
}

// The conformance test checks each registered kind has vectors.
std::string KindTypesJson() {
  json types = json::array();
  for (const auto& kind : RegisteredClientKinds()) types.push_back(kind.type);
  return Success(types);
}

// Production: the input and the blind from OsRandom (getentropy = crypto.getRandomValues).
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
