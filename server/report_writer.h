// Group commit for reports. Handler threads Submit() a validated report and
// block; one writer thread takes everything queued, commits it to SQLite in a
// single transaction (one fsync for the whole batch), updates the in-memory
// aggregates, and only then wakes the handlers, which answer 201. So a 201
// always means "durable and counted", and throughput is not bounded by one
// fsync per report.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "core/report.h"
#include "server/storage.h"
#include "server/survey_registry.h"

namespace deniable::server {

struct PendingReport {
  std::shared_ptr<SurveyEntry> survey;
  Report report;        // parsed, added to the aggregate once committed
  ReportRecord record;  // what is stored
};

enum class SubmitOutcome {
  kCommitted,           // durable and counted
  kInvitationRejected,  // unknown or already used code: nothing stored
  kStorageFailed,       // the transaction failed: nothing stored
  kShuttingDown,        // the writer no longer accepts work
};

class ReportWriter {
 public:
  // At most max_batch reports share one transaction.
  explicit ReportWriter(Storage& storage, std::size_t max_batch = 1024);
  ~ReportWriter();
  ReportWriter(const ReportWriter&) = delete;
  ReportWriter& operator=(const ReportWriter&) = delete;

  // Blocks until the report is committed (or rejected).
  SubmitOutcome Submit(PendingReport report);

  // Commits what is queued, then stops the writer thread. Idempotent.
  void Stop();

 private:
  struct Ticket {
    PendingReport report;
    SubmitOutcome outcome = SubmitOutcome::kStorageFailed;
    bool done = false;
    // One per ticket: a batch wakes exactly its own submitters.
    std::condition_variable committed;
  };

  void Run();
  std::vector<Ticket*> TakeBatch();
  void CommitBatch(const std::vector<Ticket*>& batch);
  void Complete(const std::vector<Ticket*>& batch);

  Storage& storage_;
  const std::size_t max_batch_;
  std::mutex mutex_;
  std::condition_variable work_ready_;
  std::deque<Ticket*> queue_;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace deniable::server
