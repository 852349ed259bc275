// `deniable serve` once its options are parsed: opens the data directory
// (SQLite, admin token), rebuilds the aggregates, loads the demo survey,
// starts the report writer and the HTTP server, and on SIGTERM/SIGINT stops
// accepting requests, lets in-flight ones finish and drains the writer.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "core/common/result.h"
#include "server/storage/storage.h"

namespace deniable::server {

struct ServeOptions {
  std::string host = "127.0.0.1";
  int port = 8080;
  std::string data_dir = "./deniable-data";
  // postgresql://... (or postgres://...): the nodes' shared database, and
  // nothing is kept in data_dir. Empty: SQLite in data_dir (the default).
  std::string database_url;
  std::string web_dir;   // empty: DefaultWebDirectory()
  std::vector<std::string> demo_files;  // surveys to create at start (none: empty)
  bool access_log = true;
  std::size_t results_cache_bytes = std::size_t{256} << 20;  // CacheMemory's budget
};

// The store: PostgreSQL at database_url when it is given (several nodes
// share it; the admin token is in the database), else the data directory's
// SQLite file (deniable.sqlite3 and admin-token). The one place that chooses
// the Storage implementation.
Result<std::unique_ptr<Storage>> OpenStorage(const std::string& data_dir, const std::string& database_url = "");
// Where the store is, for messages: the data directory, or the URL without its password.
std::string StoreLocation(const std::string& data_dir, const std::string& database_url);

// Returns the process exit code (0 after a graceful stop, 1 on a startup error).
int RunServer(const ServeOptions& options);

}  // namespace deniable::server
