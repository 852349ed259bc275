// Parsing untrusted JSON text, without exceptions (the WebAssembly build has
// none): nesting is limited before anything is built, so hostile input cannot
// drive recursion deep (dump() and destruction recurse), and a syntax error
// reports its byte position. The server and the WebAssembly bindings both
// parse every untrusted document through here.
#pragma once

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "core/common/result.h"

namespace deniable {

// Nesting depth of arrays/objects, counted without parsing (brackets inside
// strings are ignored); stops early once `stop_after` is exceeded.
int JsonNestingDepth(std::string_view text, int stop_after);

// `what` names the document in messages: "<what>: not valid JSON (syntax error at byte 12)".
Result<nlohmann::json> ParseJsonText(std::string_view text, int max_depth, const std::string& what);

}  // namespace deniable
