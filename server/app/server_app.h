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
#include "server/http/trusted_proxies.h"
#include "server/storage/storage.h"

namespace deniable::server {

struct ServeOptions {
  std::string host = "127.0.0.1";
  int port = 8080;
  std::string data_dir = "./deniable-data";
  std::string web_dir;   // empty: DefaultWebDirectory()
  std::vector<std::string> demo_files;  // surveys to create at start (none: empty)
  bool access_log = true;
  std::size_t results_cache_bytes = std::size_t{256} << 20;  // CacheMemory's budget
  TrustedProxies trusted_proxies;  // --trusted-proxy: whose X-Forwarded-For names the client
};

// The store of a data directory (its files: deniable.sqlite3 and admin-token):
// the one place that chooses the Storage implementation.
Result<std::unique_ptr<Storage>> OpenStorage(const std::string& data_dir);

// Returns the process exit code (0 after a graceful stop, 1 on a startup error).
int RunServer(const ServeOptions& options);

}  // namespace deniable::server
