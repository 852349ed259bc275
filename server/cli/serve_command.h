// `deniable serve [--port 8080] [--data DIR] [--web DIR] [--demo FILE] [--host 127.0.0.1] [--quiet]`
#pragma once

#include <string>
#include <vector>

namespace deniable::server {

extern const char* const kServeUsage;

int RunServeCommand(const std::vector<std::string>& args);

}  // namespace deniable::server
