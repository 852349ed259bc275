// Request bodies before any JSON is built: the content type, an empty body,
// the nesting limit, and syntax errors, each with the message a client sees.
#include "server/http/json_limits.h"

#include <doctest/doctest.h>

#include <string>

namespace deniable::server {

TEST_CASE("json limits: only application/json, alone or with charset=utf-8, is a JSON content type") {
  for (const char* accepted : {"application/json", "Application/JSON", " application/json ", "application/json; charset=utf-8",
                               "application/json;charset=UTF-8", "application/json; charset=\"utf-8\""}) {
    CAPTURE(accepted);
    CHECK(IsJsonContentType(accepted));
  }
  for (const char* refused : {"", "text/plain", "application/json-patch+json", "application/jsonx",
                              "application/json; charset=latin1", "application/json; charset=utf-8; x=1",
                              "application/json;"}) {
    CAPTURE(refused);
    CHECK_FALSE(IsJsonContentType(refused));
  }
}

TEST_CASE("json limits: a body is refused for its content type, emptiness, depth or syntax, with a message naming it") {
  const auto message = [](std::string_view type, std::string_view body) {
    const Result<nlohmann::json> parsed = ParseJsonBody(type, body);
    REQUIRE_FALSE(parsed.ok());
    return parsed.error();
  };
  CHECK(message("", "{}") == "request body: Content-Type is missing; it must be application/json");
  CHECK(message("  ", "{}") == "request body: Content-Type is missing; it must be application/json");
  CHECK(message("text/plain", "{}") ==
        "request body: Content-Type must be application/json (UTF-8), but is \"text/plain\"");
  CHECK(message("application/json", " \n") == "request body: empty, expected a JSON object");
  CHECK(message("application/json", "{\"a\": }") == "request body: not valid JSON (syntax error at byte 7)");
  // 32 levels are accepted, 33 are not (and are never built).
  const std::string deepest = std::string(kMaxJsonDepth, '[') + std::string(kMaxJsonDepth, ']');
  const Result<nlohmann::json> parsed = ParseJsonBody("application/json", deepest);
  CHECK(parsed.ok());
  const std::string too_deep = "[" + deepest + "]";
  CHECK(message("application/json", too_deep) == "request body: JSON nesting depth exceeds the limit of 32");
  const Result<nlohmann::json> object = ParseJsonBody("application/json; charset=utf-8", "{\"a\": [1, \"x\"]}");
  REQUIRE(object.ok());
  CHECK(*object == nlohmann::json{{"a", nlohmann::json::array({1, "x"})}});
}

}  // namespace deniable::server
