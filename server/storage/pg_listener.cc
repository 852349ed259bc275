#include "server/storage/pg_listener.h"

#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

namespace deniable::server {

PgListener::PgListener(std::string url, std::string channel) : url_(std::move(url)), channel_(std::move(channel)) {
  if (::pipe2(wake_, O_CLOEXEC | O_NONBLOCK) != 0) wake_[0] = wake_[1] = -1;  // then Wait just times out
}

PgListener::~PgListener() {
  for (int fd : wake_) {
    if (fd >= 0) ::close(fd);
  }
}

void PgListener::Sleep(std::chrono::milliseconds timeout) {
  pollfd fd = {wake_[0], POLLIN, 0};
  (void)::poll(&fd, wake_[0] >= 0 ? 1 : 0, static_cast<int>(timeout.count()));
}

void PgListener::Wait(const std::function<bool()>& changed, std::chrono::milliseconds timeout) {
  if (interrupted_) return;
  std::unique_lock<std::timed_mutex> lock(mutex_, std::defer_lock);
  if (!lock.try_lock_for(timeout)) return;  // another waiter has it: its caller polls the version too
  if (!connection_ || connection_->Lost()) {
    connection_.reset();
    auto connected = PgConnection::Connect(url_);
    if (!connected || !(*connected)->Exec("LISTEN " + channel_)) {
      Sleep(timeout);  // the database is down: the poll goes on at its pace
      return;
    }
    connection_ = std::move(connected).value();
    if (changed()) return;  // a change committed before LISTEN sent no notification here
  }
  auto woken = connection_->AwaitNotification(wake_[0], timeout);
  if (!woken) connection_.reset();  // lost: reconnected at the next Wait
}

void PgListener::Interrupt() {
  interrupted_ = true;
  if (wake_[1] >= 0) (void)!::write(wake_[1], "x", 1);
}

}  // namespace deniable::server
