// Group commit for reports. Handlers SubmitAsync() a validated report with a
// callback and return; one writer thread takes everything queued, commits it
// to the storage as one batch (Storage::CommitReports: SQLite, one
// transaction, one fsync for the whole batch), updates
// the in-memory aggregates, and only then calls the callbacks, which answer
// 201. So a 201 always means "durable and counted", throughput is not bounded
// by one fsync per report, and no thread waits for a commit but the writer.
//
// How long a batch gathers: the clients a commit answered usually send again
// at once, and without waiting for them the batches split in two halves that
// take turns (16 clients: 8 reports per commit, 8 arriving meanwhile), each
// paying the commit's fixed cost (BEGIN, COMMIT, the fsync: about 100 us of
// CPU and one flush per batch, the largest cost per report in the profile).
// So the next batch waits, briefly, for as many reports as were in play when
// the last commit ended (those it answered and those queued meanwhile): at
// most the last commit's duration, and never more than kMaxGather. A lone
// client that sends a report after each 201 never waits (one in play), nor
// do reports when the queue already holds that many.
#pragma once

#include <chrono>
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

  // The longest a batch waits for more reports (see the top).
  static constexpr std::chrono::microseconds kMaxGather{1000};

  Storage& storage_;
  const std::size_t max_batch_;
  // Reports in play when the last commit ended, and how long that commit took (writer thread only).
  std::size_t in_play_ = 0;
  std::chrono::microseconds last_commit_{0};
  std::mutex mutex_;
  std::condition_variable work_ready_;
  std::deque<std::unique_ptr<Ticket>> queue_;
  std::size_t notify_at_ = 1;  // the queue's length that wakes the writer
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace deniable::server
