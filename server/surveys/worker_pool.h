// A fixed set of threads that help run the independent pieces of results
// estimation (core's ParallelFor, parallel_work.h), such as a numeric
// question's bootstrap replicates.
//
// Bounded: the threads are made once, when the server starts, and a request
// never makes more. A caller (an HTTP worker holding an estimation gate's
// permit, estimation_gate.h) runs pieces of its own batch itself and the
// pool's threads take the rest, so a batch finishes even when every helper is
// busy with another request's batch, and the threads estimating at any moment
// are at most the gates' permits plus the pool's helpers, whatever the burst.
// Thread-safe.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "core/common/parallel_work.h"

namespace deniable::server {

class WorkerPool {
 public:
  // `helpers` threads (0: every batch runs on its caller's thread alone).
  explicit WorkerPool(int helpers);
  ~WorkerPool();
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;

  // Runs piece(0..count - 1) on the calling thread and the helpers; returns
  // when all have finished (rethrowing the first exception a piece threw).
  void ForEach(int count, const std::function<void(int index)>& piece);
  // ForEach as core's ParallelFor (valid while the pool lives).
  ParallelFor Executor();

  int helpers() const { return static_cast<int>(threads_.size()); }
  // The helpers' count the server uses: one less than the cores, at least one.
  static int DefaultHelpers();

 private:
  struct Batch;
  static bool RunOne(Batch& batch);
  void Help();

  std::mutex mutex_;
  std::condition_variable work_;
  std::deque<std::shared_ptr<Batch>> batches_;  // with pieces not yet claimed
  bool stopping_ = false;
  std::vector<std::thread> threads_;
};

}  // namespace deniable::server
