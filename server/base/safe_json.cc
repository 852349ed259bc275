#include "server/base/safe_json.h"

namespace deniable::server {

std::string SafeDump(const nlohmann::json& value, int indent) {
  return value.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace deniable::server
