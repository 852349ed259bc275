#include "server/base/safe_json.h"

#include <doctest/doctest.h>

namespace deniable::server {

TEST_CASE("SafeDump writes compact JSON and replaces invalid UTF-8 instead of throwing") {
  CHECK(SafeDump(nlohmann::json{{"a", 1}}) == "{\"a\":1}");
  CHECK(SafeDump(nlohmann::json::array({1, 2}), 1) == "[\n 1,\n 2\n]");
  const std::string invalid = std::string("x") + static_cast<char>(0xff) + "y";
  CHECK(SafeDump(nlohmann::json(invalid)) == "\"x\xEF\xBF\xBDy\"");
}

}  // namespace deniable::server
