// The JSON envelopes both WebAssembly modules answer with: every function
// returns {"ok":true,"value":...} or {"ok":false,"error":"<core's message>"};
// nothing throws across the boundary (the modules are built with
// -fno-exceptions). web/src/core.js and web/src/core-client.js unwrap them.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "core/common/json_text.h"
#include "core/common/result.h"

namespace deniable::wasm {

// Definitions and answers nest at most 4 levels. The limit keeps hostile input
// from driving recursion (core's error messages dump() values, and dump
// recurses) deep enough to exhaust the stack: the engine would trap, killing
// the instance, or the C stack in linear memory would silently overrun.
inline constexpr int kMaxJsonDepth = 16;

// Invalid UTF-8 cannot come out of ParseJsonArgument, but replacing it keeps
// dump() from ever throwing.
inline std::string Envelope(const nlohmann::json& envelope) {
  return envelope.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

inline std::string Success(const nlohmann::json& value) { return Envelope({{"ok", true}, {"value", value}}); }
inline std::string Failure(const std::string& message) { return Envelope({{"ok", false}, {"error", message}}); }

template <typename T>
std::string Respond(const Result<T>& result, nlohmann::json (*to_json)(const T&)) {
  return result ? Success(to_json(*result)) : Failure(result.error());
}

inline nlohmann::json Identity(const nlohmann::json& value) { return value; }

inline Result<nlohmann::json> ParseJsonArgument(const std::string& text, const std::string& name) {
  return ParseJsonText(text, kMaxJsonDepth, name);
}

}  // namespace deniable::wasm
