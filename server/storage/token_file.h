// A secret kept in a file of its own, mode 0600, created once: the admin
// token of a SQLite data directory (SqliteStorage::LoadOrCreateAdminToken).
#pragma once

#include <functional>
#include <string>

#include "core/common/result.h"

namespace deniable::server {

// The file's text without trailing whitespace, once `valid` accepts it (its
// error is prefixed with the path); when there is no file, writes fresh()
// with O_EXCL and fsync, so two servers starting at once cannot both create
// one (the second reads the first's).
Result<std::string> LoadOrCreateTokenFile(const std::string& path, const std::function<std::string()>& fresh,
                                          const std::function<Status(const std::string&)>& valid);

}  // namespace deniable::server
