#include "server/surveys/worker_pool.h"

#include <algorithm>
#include <atomic>
#include <exception>

namespace deniable::server {

struct WorkerPool::Batch {
  const std::function<void(int)>* piece;
  int count;
  std::atomic<int> next{0};  // the next piece to claim
  std::mutex mutex;
  std::condition_variable finished;
  int done = 0;  // pieces finished (under `mutex`)
  std::exception_ptr error;
};

WorkerPool::WorkerPool(int helpers) {
  for (int i = 0; i < helpers; ++i) threads_.emplace_back([this] { Help(); });
}

WorkerPool::~WorkerPool() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  work_.notify_all();
  for (auto& thread : threads_) thread.join();
}

int WorkerPool::DefaultHelpers() {
  const int cores = static_cast<int>(std::thread::hardware_concurrency());
  return std::max(1, cores - 1);
}

// Claims and runs one piece of `batch`; false when none was left to claim.
bool WorkerPool::RunOne(Batch& batch) {
  const int index = batch.next.fetch_add(1);
  if (index >= batch.count) return false;
  std::exception_ptr error;
  try {
    (*batch.piece)(index);
  } catch (...) {
    error = std::current_exception();
  }
  std::lock_guard<std::mutex> lock(batch.mutex);
  if (error && !batch.error) batch.error = error;
  if (++batch.done == batch.count) batch.finished.notify_all();
  return true;
}

void WorkerPool::Help() {
  for (;;) {
    std::shared_ptr<Batch> batch;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      work_.wait(lock, [this] { return stopping_ || !batches_.empty(); });
      if (stopping_) return;
      batch = batches_.front();
      // Every piece claimed: the batch leaves the queue (its caller waits for the rest).
      if (batch->next.load() >= batch->count) {
        batches_.pop_front();
        continue;
      }
    }
    RunOne(*batch);
  }
}

void WorkerPool::ForEach(int count, const std::function<void(int index)>& piece) {
  if (count <= 0) return;
  auto batch = std::make_shared<Batch>();
  batch->piece = &piece;
  batch->count = count;
  if (!threads_.empty() && count > 1) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      batches_.push_back(batch);
    }
    work_.notify_all();
  }
  while (RunOne(*batch)) {
  }
  {
    std::unique_lock<std::mutex> lock(batch->mutex);
    batch->finished.wait(lock, [&] { return batch->done == batch->count; });
  }
  {
    std::lock_guard<std::mutex> lock(mutex_);
    batches_.erase(std::remove(batches_.begin(), batches_.end(), batch), batches_.end());
  }
  if (batch->error) std::rethrow_exception(batch->error);
}

ParallelFor WorkerPool::Executor() {
  return [this](int count, const std::function<void(int index)>& piece) { ForEach(count, piece); };
}

}  // namespace deniable::server
