// Group commit for reports. Handlers SubmitAsync() a validated report with a
// callback and return; one writer thread takes everything queued, commits it
// to the storage as one batch (Storage::CommitReports: SQLite, one
// transaction, one fsync for the whole batch), updates
// the in-memory aggregates, and only then calls the callbacks, which answer
// 201. So a 201 always means "durable and counted", throughput is not bounded
// by one fsync per report, and no thread waits for a commit but the writer.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "core/survey/report.h"
#include "server/storage/storage.h"
#include "server/surveys/survey_registry.h"

namespace deniable::server {

struct PendingReport {
  std::shared_ptr<SurveyEntry> survey;
  Report report;        // parsed, added to the aggregate once committed
  ReportRecord record;  // what is stored
};

enum class SubmitOutcome {
  kCommitted,           // durable and counted
  kTokenUsed,           // its invitation token was spent already: nothing stored
  kStorageFailed,       // the transaction failed: nothing stored
  kShuttingDown,        // the writer no longer accepts work
  kSurveyDeleted,       // the survey was deleted before the commit: nothing stored
  kSurveyClosed,        // the survey was closed before the commit: nothing stored
  kStorageUnavailable,  // the database file is gone (removed under the server): nothing stored
  kNotAdmitted,         // earlier reports of the batch filled its model round: nothing stored
};

class ReportWriter {
 public:
  // At most max_batch reports share one transaction.
  explicit ReportWriter(Storage& storage, std::size_t max_batch = 1024);
  ~ReportWriter();
  ReportWriter(const ReportWriter&) = delete;
  ReportWriter& operator=(const ReportWriter&) = delete;

  // Queues the report; `done` runs once, on the writer thread once the report
  // is committed or rejected (or at once, on this thread, when stopping).
  void SubmitAsync(PendingReport report, std::function<void(SubmitOutcome)> done);

  // Commits what is queued, then stops the writer thread. Idempotent.
  void Stop();

 private:
  struct Ticket {
    PendingReport report;
    std::function<void(SubmitOutcome)> done;
    SubmitOutcome outcome = SubmitOutcome::kStorageFailed;
  };

  void Run();
  std::vector<std::unique_ptr<Ticket>> TakeBatch();
  void CommitBatch(const std::vector<std::unique_ptr<Ticket>>& batch);
  // The batch's admission (Storage::BatchAdmission) over its tickets.
  static std::vector<bool> Admit(const std::vector<std::unique_ptr<Ticket>>& batch,
                                 const std::vector<std::size_t>& candidates);
  static SubmitOutcome Outcome(RecordOutcome stored);

  Storage& storage_;
  const std::size_t max_batch_;
  std::mutex mutex_;
  std::condition_variable work_ready_;
  std::deque<std::unique_ptr<Ticket>> queue_;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace deniable::server
