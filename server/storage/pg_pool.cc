#include "server/storage/pg_pool.h"

namespace deniable::server {

Result<PgPool::Lease> PgPool::Acquire() {
  {
    std::unique_lock<std::mutex> lock(mutex_);
    returned_.wait(lock, [&] { return !idle_.empty() || open_ < size_; });
    if (!idle_.empty()) {
      std::unique_ptr<PgConnection> connection = std::move(idle_.back());
      idle_.pop_back();
      return Lease(this, std::move(connection));
    }
    ++open_;  // this slot is ours while connecting (outside the lock)
  }
  auto connection = PgConnection::Connect(url_);
  if (!connection) {
    std::lock_guard<std::mutex> lock(mutex_);
    --open_;
    returned_.notify_one();
    return std::move(connection).failure();
  }
  return Lease(this, std::move(connection).value());
}

void PgPool::Return(std::unique_ptr<PgConnection> connection) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!connection->Idle()) {
    --open_;  // lost (or left inside a transaction): dropped, the next Acquire reconnects
  } else {
    idle_.push_back(std::move(connection));
  }
  returned_.notify_one();
}

}  // namespace deniable::server
