// WakeBatch: outside a batch the caller wakes at once; inside one, each
// target is woken once, when the outermost batch ends, on the same thread.
#include "server/base/wake_batch.h"

#include <doctest/doctest.h>

#include <string>
#include <thread>

namespace deniable::server {

TEST_CASE("wake batch: outside a batch nothing is deferred") {
  int woken = 0;
  CHECK_FALSE(WakeBatch::Defer(&woken, [&] { ++woken; }));
  CHECK(woken == 0);  // the caller wakes itself
}

TEST_CASE("wake batch: each target woken once at the end, in the order first deferred; nested batches wait for the outermost") {
  std::string log;
  const int first = 0, second = 0;
  {
    WakeBatch outer;
    CHECK(WakeBatch::Defer(&first, [&] { log += "1"; }));
    {
      WakeBatch inner;
      CHECK(WakeBatch::Defer(&second, [&] { log += "2"; }));
      CHECK(WakeBatch::Defer(&first, [&] { log += "x"; }));  // already kept: not again
    }
    CHECK(log.empty());  // the inner batch's end wakes nobody
  }
  CHECK(log == "12");
  CHECK_FALSE(WakeBatch::Defer(&first, [&] { log += "3"; }));  // the batch is over
}

TEST_CASE("wake batch: a batch belongs to its thread") {
  WakeBatch batch;
  bool deferred_elsewhere = true;
  std::thread other([&] { deferred_elsewhere = WakeBatch::Defer(&batch, [] {}); });
  other.join();
  CHECK_FALSE(deferred_elsewhere);
}

}  // namespace deniable::server
