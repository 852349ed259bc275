// Small filesystem helpers with error messages that name the path and the problem.
#pragma once

#include <string>

#include "core/common/result.h"

namespace deniable::server {

// The whole file, or "cannot read FILE: <reason>".
Result<std::string> ReadFileText(const std::string& path);

// Creates the directory (and its parents) if missing; new directories are
// private to the user (0700) because the data directory holds the admin token.
Status EnsureDirectory(const std::string& path);

// True when group or others have any permission on the path.
bool IsOpenToOthers(const std::string& path);

// The directory holding the running executable ("" if it cannot be found).
std::string ExecutableDirectory();

bool IsDirectory(const std::string& path);

}  // namespace deniable::server
