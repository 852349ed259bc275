#include "server/json_limits.h"

#include <algorithm>
#include <cctype>
#include <string>

namespace deniable::server {
namespace {

std::string Lowercase(std::string_view text) {
  std::string lower(text);
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return lower;
}

std::string_view Trim(std::string_view text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front()))) text.remove_prefix(1);
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) text.remove_suffix(1);
  return text;
}

}  // namespace

int JsonNestingDepth(std::string_view text, int stop_after) {
  int depth = 0;
  int deepest = 0;
  bool in_string = false;
  bool escaped = false;
  for (char c : text) {
    if (in_string) {
      if (escaped) {
        escaped = false;
      } else if (c == '\\') {
        escaped = true;
      } else if (c == '"') {
        in_string = false;
      }
      continue;
    }
    if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      deepest = std::max(deepest, ++depth);
      if (deepest > stop_after) return deepest;
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
  return deepest;
}

bool IsJsonContentType(std::string_view content_type) {
  const std::string_view media_type = Trim(content_type.substr(0, content_type.find(';')));
  return media_type.empty() || Lowercase(media_type) == "application/json";
}

Result<nlohmann::json> ParseJsonBody(std::string_view content_type, std::string_view body) {
  if (!IsJsonContentType(content_type)) {
    return MakeError("request body: Content-Type must be application/json, but is \"" + std::string(content_type) +
                     "\"");
  }
  if (Trim(body).empty()) return MakeError("request body: empty, expected a JSON object");
  if (JsonNestingDepth(body, kMaxJsonDepth) > kMaxJsonDepth) {
    return MakeError("request body: JSON nesting depth exceeds the limit of " + std::to_string(kMaxJsonDepth));
  }
  try {
    return nlohmann::json::parse(body);
  } catch (const nlohmann::json::parse_error& error) {
    return MakeError("request body: not valid JSON (syntax error at byte " + std::to_string(error.byte) + ")");
  } catch (const nlohmann::json::exception&) {
    // out_of_range: a number such as 1e999 that no double can hold.
    return MakeError("request body: not valid JSON (a number is out of range)");
  }
}

}  // namespace deniable::server
