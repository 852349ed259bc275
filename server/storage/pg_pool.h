// A few PostgreSQL connections shared by the server's threads. Acquire
// leases one (waiting while all are leased); a lease returned with its
// connection lost drops it, and the next Acquire connects anew, so a
// database restart costs the requests in flight, not the node.
#pragma once

#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "core/common/result.h"
#include "server/storage/pg_connection.h"

namespace deniable::server {

class PgPool {
 public:
  class Lease {
   public:
    Lease(PgPool* pool, std::unique_ptr<PgConnection> connection) : pool_(pool), connection_(std::move(connection)) {}
    Lease(Lease&& other) noexcept = default;
    Lease& operator=(Lease&&) = delete;
    Lease(const Lease&) = delete;
    ~Lease() {
      if (pool_ && connection_) pool_->Return(std::move(connection_));
    }
    PgConnection& operator*() const { return *connection_; }
    PgConnection* operator->() const { return connection_.get(); }

   private:
    PgPool* pool_;
    std::unique_ptr<PgConnection> connection_;
  };

  PgPool(std::string url, int size) : url_(std::move(url)), size_(size) {}
  PgPool(const PgPool&) = delete;
  PgPool& operator=(const PgPool&) = delete;

  // An idle connection, or a new one while fewer than `size` exist;
  // kUnavailable when the database cannot be reached now.
  Result<Lease> Acquire();
  const std::string& url() const { return url_; }

 private:
  void Return(std::unique_ptr<PgConnection> connection);

  const std::string url_;
  const int size_;
  std::mutex mutex_;
  std::condition_variable returned_;
  std::vector<std::unique_ptr<PgConnection>> idle_;
  int open_ = 0;  // idle and leased
};

}  // namespace deniable::server
