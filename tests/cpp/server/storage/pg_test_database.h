// A fresh PostgreSQL database for each test that asks: in the cluster named
// by DENIABLE_TEST_PG_URL (a URL whose user may CREATE DATABASE), or else in
// a throw-away cluster this test binary starts once (scripts/pg-cluster.sh,
// in a temporary directory) and stops at exit. When neither is possible the
// test FAILS with the reason: PostgreSQL cases are never skipped silently.
#pragma once

#include <unistd.h>

#include <array>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <string>

#include "core/common/result.h"
#include "server/storage/pg_connection.h"

namespace deniable::server {

// The URL with its database name replaced (postgresql://host/db?params).
inline std::string PgUrlWithDatabase(const std::string& url, const std::string& name) {
  const auto scheme = url.find("://");
  const auto path = url.find('/', scheme + 3);
  const auto query = url.find('?', scheme + 3);
  if (path == std::string::npos || (query != std::string::npos && path > query)) {
    return url.substr(0, query == std::string::npos ? url.size() : query) + "/" + name +
           (query == std::string::npos ? "" : url.substr(query));
  }
  return url.substr(0, path + 1) + name + (query == std::string::npos ? "" : url.substr(query));
}

class PgTestCluster {
 public:
  static PgTestCluster& Get() {
    static PgTestCluster cluster;
    return cluster;
  }
  ~PgTestCluster() {
    if (dir_.empty()) return;
    const std::string stop = "bash " DENIABLE_SOURCE_DIR "/scripts/pg-cluster.sh stop " + dir_ + " >/dev/null 2>&1";
    if (std::system(stop.c_str()) == 0) std::system(("rm -rf " + dir_).c_str());
  }

  // The URL of a new, empty database.
  Result<std::string> FreshDatabase() {
    std::lock_guard<std::mutex> lock(mutex_);
    if (base_url_.empty()) DENIABLE_TRY(Start());
    const std::string name = "deniable_test_" + std::to_string(::getpid()) + "_" + std::to_string(++databases_);
    DENIABLE_ASSIGN_OR_RETURN(auto admin, PgConnection::Connect(base_url_));
    DENIABLE_TRY(admin->Exec("CREATE DATABASE " + name));
    return PgUrlWithDatabase(base_url_, name);
  }

 private:
  PgTestCluster() = default;

  Status Start() {
    if (const char* given = std::getenv("DENIABLE_TEST_PG_URL"); given && *given) {
      base_url_ = given;
      return OkStatus();
    }
    char pattern[] = "/tmp/deniable-pg-XXXXXX";
    if (!::mkdtemp(pattern)) return MakeError("PostgreSQL tests: cannot create a temporary directory");
    dir_ = pattern;
    const std::string start = "bash " DENIABLE_SOURCE_DIR "/scripts/pg-cluster.sh start " + dir_ + " 2>&1";
    std::FILE* pipe = ::popen(start.c_str(), "r");
    if (!pipe) return MakeError("PostgreSQL tests: cannot run scripts/pg-cluster.sh");
    std::string output;
    std::array<char, 512> buffer{};
    while (std::fgets(buffer.data(), buffer.size(), pipe)) output += buffer.data();
    const int status = ::pclose(pipe);
    while (!output.empty() && output.back() == '\n') output.pop_back();
    if (status != 0 || output.rfind("postgresql://", 0) != 0) {
      return MakeError("PostgreSQL tests: scripts/pg-cluster.sh start " + dir_ +
                       " failed (install postgresql: bash scripts/setup.sh; or set DENIABLE_TEST_PG_URL): " + output);
    }
    base_url_ = output;
    return OkStatus();
  }

  std::mutex mutex_;
  std::string dir_;
  std::string base_url_;
  int databases_ = 0;
};

}  // namespace deniable::server
