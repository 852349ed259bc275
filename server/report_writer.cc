#include "server/report_writer.h"

#include <algorithm>
#include <iostream>

namespace deniable::server {

ReportWriter::ReportWriter(Storage& storage, std::size_t max_batch)
    : storage_(storage), max_batch_(std::max<std::size_t>(1, max_batch)), thread_([this] { Run(); }) {}

ReportWriter::~ReportWriter() { Stop(); }

SubmitOutcome ReportWriter::Submit(PendingReport report) {
  Ticket ticket{std::move(report)};
  std::unique_lock<std::mutex> lock(mutex_);
  if (stopping_) return SubmitOutcome::kShuttingDown;
  queue_.push_back(&ticket);
  work_ready_.notify_one();
  ticket.committed.wait(lock, [&] { return ticket.done; });
  return ticket.outcome;
}

void ReportWriter::Stop() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  work_ready_.notify_one();
  if (thread_.joinable()) thread_.join();
}

void ReportWriter::Run() {
  for (;;) {
    std::vector<Ticket*> batch = TakeBatch();
    if (batch.empty()) return;  // stopping and drained
    CommitBatch(batch);
    Complete(batch);
  }
}

std::vector<ReportWriter::Ticket*> ReportWriter::TakeBatch() {
  std::unique_lock<std::mutex> lock(mutex_);
  work_ready_.wait(lock, [&] { return !queue_.empty() || stopping_; });
  const std::size_t count = std::min(queue_.size(), max_batch_);
  std::vector<Ticket*> batch(queue_.begin(), queue_.begin() + static_cast<std::ptrdiff_t>(count));
  queue_.erase(queue_.begin(), queue_.begin() + static_cast<std::ptrdiff_t>(count));
  return batch;
}

void ReportWriter::CommitBatch(const std::vector<Ticket*>& batch) {
  std::vector<const ReportRecord*> records;
  records.reserve(batch.size());
  for (const Ticket* ticket : batch) records.push_back(&ticket->report.record);
  auto outcomes = storage_.CommitReports(records);
  if (!outcomes) {
    std::cerr << "error: storing " << batch.size() << " report(s) failed: " << outcomes.error() << std::endl;
    for (Ticket* ticket : batch) ticket->outcome = SubmitOutcome::kStorageFailed;
    return;
  }
  for (std::size_t i = 0; i < batch.size(); ++i) {
    Ticket& ticket = *batch[i];
    if ((*outcomes)[i] == RecordOutcome::kInvitationRejected) {
      ticket.outcome = SubmitOutcome::kInvitationRejected;
      continue;
    }
    if ((*outcomes)[i] == RecordOutcome::kFailed) {
      ticket.outcome = SubmitOutcome::kStorageFailed;
      continue;
    }
    // Counted before the handler is woken: a 201 is visible in the results.
    ticket.report.survey->AddReport(ticket.report.report);
    ticket.outcome = SubmitOutcome::kCommitted;
  }
}

void ReportWriter::Complete(const std::vector<Ticket*>& batch) {
  std::lock_guard<std::mutex> lock(mutex_);
  for (Ticket* ticket : batch) {
    ticket->done = true;
    ticket->committed.notify_one();
  }
}

}  // namespace deniable::server
