// LISTEN on a connection of its own, for a node that polls a version: a
// notification (NOTIFY, sent by a transaction when it commits) wakes the
// poller at once instead of at its next poll. Notifications are a hint only:
// they are not replayed to a connection that was down, so the caller reads
// its version after every Wait, whatever woke it.
#pragma once

#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <mutex>
#include <string>

#include "server/storage/pg_connection.h"

namespace deniable::server {

class PgListener {
 public:
  PgListener(std::string url, std::string channel);
  ~PgListener();
  PgListener(const PgListener&) = delete;
  PgListener& operator=(const PgListener&) = delete;

  // Returns on a notification, after `timeout`, or at once once Interrupt()
  // was called. (Re)connects and LISTENs when needed; just after a new
  // LISTEN, returns at once if `changed()` says a change came before it.
  void Wait(const std::function<bool()>& changed, std::chrono::milliseconds timeout);
  // Wakes every Wait, now and later.
  void Interrupt();

 private:
  void Sleep(std::chrono::milliseconds timeout);  // interruptible

  const std::string url_;
  const std::string channel_;
  std::timed_mutex mutex_;  // one waiter uses the connection at a time
  std::unique_ptr<PgConnection> connection_;
  int wake_[2] = {-1, -1};  // a pipe: readable once interrupted
  std::atomic<bool> interrupted_{false};
};

}  // namespace deniable::server
