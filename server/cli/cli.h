// The `deniable` command line: dispatches to serve, simulate and advise, and
// answers --help and --version. Usage errors exit with code 2.
#pragma once

#include <string>
#include <vector>

namespace deniable::server {

// args: argv without the program name. Returns the exit code.
int RunCli(const std::vector<std::string>& args);

}  // namespace deniable::server
