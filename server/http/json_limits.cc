#include "server/http/json_limits.h"

#include "core/common/json_text.h"

#include <algorithm>
#include <cctype>
#include <string>

namespace deniable::server {
namespace {

std::string LowercaseMediaType(std::string_view text) {
  std::string lower(text);
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return lower;
}

std::string_view TrimWhitespace(std::string_view text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front()))) text.remove_prefix(1);
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) text.remove_suffix(1);
  return text;
}

}  // namespace

bool IsJsonContentType(std::string_view content_type) {
  const std::size_t semicolon = content_type.find(';');
  if (LowercaseMediaType(TrimWhitespace(content_type.substr(0, semicolon))) != "application/json") return false;
  if (semicolon == std::string_view::npos) return true;
  // JSON is UTF-8 (RFC 8259): the only parameter accepted is charset=utf-8.
  std::string parameter = LowercaseMediaType(TrimWhitespace(content_type.substr(semicolon + 1)));
  parameter.erase(std::remove(parameter.begin(), parameter.end(), '"'), parameter.end());
  return parameter == "charset=utf-8";
}

Result<nlohmann::json> ParseJsonBody(std::string_view content_type, std::string_view body) {
  if (!IsJsonContentType(content_type)) {
    if (TrimWhitespace(content_type).empty()) return MakeError("request body: Content-Type is missing; it must be application/json");
    return MakeError("request body: Content-Type must be application/json (UTF-8), but is \"" +
                     std::string(content_type) + "\"");
  }
  if (TrimWhitespace(body).empty()) return MakeError("request body: empty, expected a JSON object");
  return ParseJsonText(body, kMaxJsonDepth, "request body");
}

}  // namespace deniable::server
