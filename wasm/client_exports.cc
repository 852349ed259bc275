// The client WebAssembly module's face (web/src/generated/deniable_client.mjs,
// the respondent's page): plain C exports, no Embind, so the module carries
// no binding runtime. Each takes NUL-terminated UTF-8 JSON text and returns a
// NUL-terminated envelope (envelope.h) allocated with malloc; the caller
// (web/src/core-client.js) reads it and frees it with the exported free.
// wasm/build.sh exports exactly these (and malloc/free); a test checks that
// no estimation function is reachable from outside.
#include <emscripten/emscripten.h>

#include <cstdlib>
#include <cstring>
#include <string>

#include "wasm/client_api.h"

namespace {

// A malloc'd copy of `text` with its NUL; null if memory ran out (the loader
// then reports the call as failed).
char* Give(const std::string& text) {
  char* copy = static_cast<char*>(std::malloc(text.size() + 1));
  if (copy != nullptr) std::memcpy(copy, text.c_str(), text.size() + 1);
  return copy;
}

}  // namespace

extern "C" {

// The project version as plain text (not an envelope).
EMSCRIPTEN_KEEPALIVE char* deniable_version() { return Give(deniable::wasm::Version()); }

EMSCRIPTEN_KEEPALIVE char* deniable_parse_survey(const char* definition) {
  return Give(deniable::wasm::ParseSurveyJson(definition));
}

EMSCRIPTEN_KEEPALIVE char* deniable_perturb(const char* definition, const char* answers) {
  return Give(deniable::wasm::PerturbJson(definition, answers));
}

EMSCRIPTEN_KEEPALIVE char* deniable_perturb_seeded(const char* definition, const char* answers, const char* seed) {
  return Give(deniable::wasm::PerturbSeededJson(definition, answers, seed));
}

EMSCRIPTEN_KEEPALIVE char* deniable_privacy_of_choices(const char* definition, const char* question_id,
                                                       const char* choices) {
  return Give(deniable::wasm::PrivacyOfChoicesJson(definition, question_id, choices));
}

EMSCRIPTEN_KEEPALIVE char* deniable_kind_types() { return Give(deniable::wasm::KindTypesJson()); }

EMSCRIPTEN_KEEPALIVE char* deniable_token_blind() { return Give(deniable::wasm::TokenBlindJson()); }

EMSCRIPTEN_KEEPALIVE char* deniable_token_blind_with(const char* input_hex, const char* blind_hex) {
  return Give(deniable::wasm::TokenBlindWithJson(input_hex, blind_hex));
}

EMSCRIPTEN_KEEPALIVE char* deniable_token_finalize(const char* token) {
  return Give(deniable::wasm::TokenFinalizeJson(token));
}

}  // extern "C"
