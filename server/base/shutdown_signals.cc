#include "server/base/shutdown_signals.h"

#include <pthread.h>
#include <signal.h>

namespace deniable::server {
namespace {

sigset_t ShutdownSignalSet() {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGTERM);
  sigaddset(&set, SIGINT);
  return set;
}

}  // namespace

void BlockShutdownSignals() {
  ::signal(SIGPIPE, SIG_IGN);
  const sigset_t set = ShutdownSignalSet();
  pthread_sigmask(SIG_BLOCK, &set, nullptr);
}

ShutdownSignals::ShutdownSignals(std::function<void(int)> on_signal) : on_signal_(std::move(on_signal)) {
  BlockShutdownSignals();
  waiter_ = std::thread([this] { Wait(); });
}

ShutdownSignals::~ShutdownSignals() {
  closing_ = true;
  // Wake the waiter with a signal only it can receive (blocked everywhere).
  pthread_kill(waiter_.native_handle(), SIGTERM);
  waiter_.join();
}

void ShutdownSignals::Wait() {
  const sigset_t set = ShutdownSignalSet();
  int signal_number = 0;
  if (sigwait(&set, &signal_number) != 0) return;
  if (!closing_) on_signal_(signal_number);
}

}  // namespace deniable::server
