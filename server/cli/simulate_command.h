// `deniable simulate --survey FILE --truth FILE --respondents N [--seed S] [--json]`:
// runs core Simulate and prints the report (simulation_output.h).
#pragma once

#include <string>
#include <vector>

namespace deniable::server {

extern const char* const kSimulateUsage;

int RunSimulateCommand(const std::vector<std::string>& args);

}  // namespace deniable::server
