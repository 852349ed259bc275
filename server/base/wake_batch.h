// Wake-ups deferred while one thread hands out many results at once. The
// report writer answers a whole committed batch in one go; each answer goes
// to an event loop, and waking the loop for each (an eventfd write, a
// system call) made the loop take the answers one at a time, woken again
// and again (16 writes per commit of 16 reports, strace). Within a
// WakeBatch each target is woken once, when the batch ends.
#pragma once

#include <functional>
#include <utility>
#include <vector>

namespace deniable::server {

class WakeBatch {
 public:
  // Begins a batch on this thread; batches nest (the outermost one wakes).
  WakeBatch();
  // Runs each deferred wake-up once.
  ~WakeBatch();
  WakeBatch(const WakeBatch&) = delete;
  WakeBatch& operator=(const WakeBatch&) = delete;

  // In a batch on this thread: keeps `wake` (once per `target`) for the
  // batch's end and returns true. Outside one: false, and the caller wakes now.
  static bool Defer(const void* target, std::function<void()> wake);

 private:
  WakeBatch* outer_;
  std::vector<std::pair<const void*, std::function<void()>>> wakes_;
};

}  // namespace deniable::server
