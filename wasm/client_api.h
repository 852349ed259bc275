// What the respondent's page asks of core, as functions over JSON text that
// return envelopes (envelope.h). Both modules carry them: the client module
// (client_exports.cc, plain C exports) and the full one (bindings.cc, Embind),
// so the two give the same answers from the same code.
#pragma once

#include <string>

namespace deniable::wasm {

// The project version ("0.1.0"), not an envelope.
std::string Version();
// {survey, total_epsilon, questions: [{id, type, required, epsilon, privacy, ...page summary}]}
std::string ParseSurveyJson(const std::string& definition_json);
// A report; noise from OsRandom (getentropy = crypto.getRandomValues).
std::string PerturbJson(const std::string& definition_json, const std::string& answers_json);
// Deterministic, for test vectors only: a seeded report is NOT private.
std::string PerturbSeededJson(const std::string& definition_json, const std::string& answers_json,
                              const std::string& seed_text);
// What a respondent's privacy choices give for one question (KindClient::PrivacyOfChoices).
std::string PrivacyOfChoicesJson(const std::string& definition_json, const std::string& question_id,
                                 const std::string& choices_json);
// The registered kinds' type names.
std::string KindTypesJson();
// Blind tokens (core/oprf/voprf.h), the page's side.
std::string TokenBlindJson();
std::string TokenBlindWithJson(const std::string& input_hex, const std::string& blind_hex);
std::string TokenFinalizeJson(const std::string& token_json);

}  // namespace deniable::wasm
