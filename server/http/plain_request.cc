#include "server/http/plain_request.h"

#include <algorithm>
#include <cctype>
#include <utility>

namespace deniable::server {
namespace {

// The library reads header lines into a bounded buffer: far below it.
constexpr std::size_t kMaxPlainHead = 4096;

std::string LowercasePlain(std::string_view text) {
  std::string lower(text);
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return lower;
}

bool EqualsLowercase(std::string_view text, std::string_view lowercase) {
  return text.size() == lowercase.size() && std::equal(text.begin(), text.end(), lowercase.begin(), [](char a, char b) {
           return (a >= 'A' && a <= 'Z' ? static_cast<char>(a - 'A' + 'a') : a) == b;
         });
}

bool ContainsIgnoringCase(std::string_view text, std::string_view lowercase) {
  for (std::size_t i = 0; i + lowercase.size() <= text.size(); ++i) {
    if (EqualsLowercase(text.substr(i, lowercase.size()), lowercase)) return true;
  }
  return false;
}

// Unreserved characters and '/': nothing the library would decode, split or refuse.
bool IsPlainPath(std::string_view path) {
  return !path.empty() && path[0] == '/' && std::all_of(path.begin(), path.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '/' || c == '-' ||
           c == '_' || c == '.' || c == '~';
  });
}

// Printable, no '%' (the library percent-decodes header values), not empty (whether the library
// keeps an empty header is its own business: such requests take its path).
bool IsPlainValue(std::string_view value) {
  return !value.empty() && std::all_of(value.begin(), value.end(), [](char c) {
    const auto u = static_cast<unsigned char>(c);
    return (u >= 0x20 && u < 0x7f && c != '%') || c == '\t';
  });
}

}  // namespace

bool IsPlainRequest(const RequestHead& head, std::string_view request_line) {
  if (head.method != "POST" || head.chunked || head.head_bytes > kMaxPlainHead) return false;
  if (request_line.size() < 9 || request_line.substr(request_line.size() - 9) != " HTTP/1.1") return false;
  if (!IsPlainPath(head.target)) return false;
  for (const auto& [name, value] : head.headers) {
    if (EqualsLowercase(name, "connection") || EqualsLowercase(name, "range") ||
        EqualsLowercase(name, "transfer-encoding")) {
      return false;
    }
    if (EqualsLowercase(name, "content-type") && ContainsIgnoringCase(value, "multipart")) return false;
    if (!IsPlainValue(value)) return false;
  }
  return true;
}

ApiRequest PlainApiRequest(const RequestHead& head, std::string body, std::vector<std::string> path_params,
                           std::string remote_address) {
  ApiRequest request;
  request.method = head.method;
  request.path = head.target;
  request.path_params = std::move(path_params);
  for (const auto& [name, value] : head.headers) {
    std::string lower = LowercasePlain(name);
    if (lower == "expect") continue;  // the gate answers it (ForwardedHead drops it)
    // The library saw the client's Accept-Encoding renamed (ForwardedHead); the handler sees it as sent.
    static const std::string forwarded_accept_encoding = LowercasePlain(kForwardedAcceptEncoding);
    if (lower == forwarded_accept_encoding) lower = "accept-encoding";
    if (lower == "x-forwarded-for" && request.headers.count(lower)) {
      request.headers[lower] += ", " + value;
      continue;
    }
    request.headers.emplace(std::move(lower), value);
  }
  request.body = std::move(body);
  request.remote_address = std::move(remote_address);
  return request;
}

}  // namespace deniable::server
