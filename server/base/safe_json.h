// JSON text that never throws: invalid UTF-8 (e.g. from a URL or a stored
// answer's label) is replaced, so writing a response or an export cannot fail.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace deniable::server {

std::string SafeDump(const nlohmann::json& value, int indent = -1);

}  // namespace deniable::server
