// Graceful stop on SIGTERM and SIGINT. The signals are blocked in every
// thread and received by one waiting thread with sigwait, which then runs an
// ordinary callback: no work happens inside a signal handler. SIGPIPE is
// ignored so a client that disconnects cannot kill the server.
#pragma once

#include <atomic>
#include <functional>
#include <thread>

namespace deniable::server {

// Blocks SIGTERM and SIGINT in the calling thread and every thread it starts
// later; call it first thing, before any thread exists. Ignores SIGPIPE.
void BlockShutdownSignals();

class ShutdownSignals {
 public:
  // on_signal(signal_number) runs at most once, on the waiting thread.
  explicit ShutdownSignals(std::function<void(int)> on_signal);
  ~ShutdownSignals();
  ShutdownSignals(const ShutdownSignals&) = delete;
  ShutdownSignals& operator=(const ShutdownSignals&) = delete;

 private:
  void Wait();

  std::function<void(int)> on_signal_;
  std::atomic<bool> closing_{false};
  std::thread waiter_;
};

}  // namespace deniable::server
