// Limits on request bodies, checked before any JSON is built: at most 1 MiB
// (enforced by the HTTP adapter with 413), nesting at most 32 levels, and a
// JSON content type. Messages name the limit or the problem.
#pragma once

#include <cstddef>
#include <string_view>

#include <nlohmann/json.hpp>

#include "core/common/result.h"

namespace deniable::server {

inline constexpr std::size_t kMaxBodyBytes = 1024 * 1024;
inline constexpr int kMaxJsonDepth = 32;

// True for "application/json", alone or with "charset=utf-8"; false for an
// absent header and for any other charset (the body is read as UTF-8).
bool IsJsonContentType(std::string_view content_type);

// The request body as JSON, or a message such as
// "request body: JSON nesting depth exceeds the limit of 32".
Result<nlohmann::json> ParseJsonBody(std::string_view content_type, std::string_view body);

}  // namespace deniable::server
