// `deniable advise --options K --epsilon E --respondents N [--json]`: core
// Advise, i.e. the expected standard error of each mechanism and which to use.
#pragma once

#include <string>
#include <vector>

namespace deniable::server {

extern const char* const kAdviseUsage;

int RunAdviseCommand(const std::vector<std::string>& args);

}  // namespace deniable::server
