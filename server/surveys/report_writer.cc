#include "server/surveys/report_writer.h"

#include <algorithm>
#include <iostream>
#include <map>
#include <set>
#include <string>
#include <utility>

namespace deniable::server {

ReportWriter::ReportWriter(Storage& storage, std::size_t max_batch)
    : storage_(storage), max_batch_(std::max<std::size_t>(1, max_batch)), thread_([this] { Run(); }) {}

ReportWriter::~ReportWriter() { Stop(); }

void ReportWriter::SubmitAsync(PendingReport report, std::function<void(SubmitOutcome)> done) {
  auto ticket = std::make_unique<Ticket>(Ticket{std::move(report), std::move(done), SubmitOutcome::kStorageFailed});
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!stopping_) {
      queue_.push_back(std::move(ticket));
      work_ready_.notify_one();
      return;
    }
  }
  ticket->done(SubmitOutcome::kShuttingDown);
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
    std::vector<std::unique_ptr<Ticket>> batch = TakeBatch();
    if (batch.empty()) return;  // stopping and drained
    CommitBatch(batch);
    for (const auto& ticket : batch) ticket->done(ticket->outcome);
  }
}

std::vector<std::unique_ptr<ReportWriter::Ticket>> ReportWriter::TakeBatch() {
  std::unique_lock<std::mutex> lock(mutex_);
  work_ready_.wait(lock, [&] { return !queue_.empty() || stopping_; });
  const std::size_t count = std::min(queue_.size(), max_batch_);
  std::vector<std::unique_ptr<Ticket>> batch;
  batch.reserve(count);
  for (std::size_t i = 0; i < count; ++i) {
    batch.push_back(std::move(queue_.front()));
    queue_.pop_front();
  }
  return batch;
}

// Reports were admitted one by one as they arrived (a model's round with a
// place left); counted together, two may have taken its last place. Each
// survey judges its reports of the batch in order; the ones it no longer
// admits are refused (the page prepares them again), never counted.
// A report whose invitation code storage will refuse (unknown, used, or used
// by an earlier report of this batch) must not take a round's place from the
// honest reports after it: it is refused first. Only this thread spends codes,
// so what is unused now is unused when the batch is stored.
void ReportWriter::RefuseSpentCodes(const std::vector<std::unique_ptr<Ticket>>& batch) {
  std::set<std::pair<std::string, std::string>> in_batch;  // (survey, code hash)
  for (const auto& ticket : batch) {
    const ReportRecord& record = ticket->report.record;
    if (!record.invitation_code_hash) continue;
    const bool repeated = !in_batch.emplace(record.survey_id, *record.invitation_code_hash).second;
    auto unused = repeated ? Result<bool>(false) : storage_.InvitationUnused(record.survey_id, *record.invitation_code_hash);
    // A failed check is left to the commit, which reports the failure itself.
    if (unused && !*unused) ticket->outcome = SubmitOutcome::kInvitationRejected;
  }
}

std::vector<ReportWriter::Ticket*> ReportWriter::Admitted(const std::vector<std::unique_ptr<Ticket>>& batch) {
  RefuseSpentCodes(batch);
  std::map<SurveyEntry*, std::vector<Ticket*>> by_survey;  // each survey's tickets still in play, in batch order
  for (const auto& ticket : batch) {
    if (ticket->outcome != SubmitOutcome::kInvitationRejected) by_survey[ticket->report.survey.get()].push_back(ticket.get());
  }
  for (auto& [survey, tickets] : by_survey) {
    std::vector<const Report*> reports;
    reports.reserve(tickets.size());
    for (const Ticket* ticket : tickets) reports.push_back(&ticket->report.report);
    const std::vector<Status> admitted = survey->AdmitInOrder(reports);
    for (std::size_t i = 0; i < tickets.size(); ++i) {
      if (!admitted[i]) tickets[i]->outcome = SubmitOutcome::kNotAdmitted;
    }
  }
  std::vector<Ticket*> admitted;
  for (const auto& ticket : batch) {
    if (ticket->outcome != SubmitOutcome::kNotAdmitted && ticket->outcome != SubmitOutcome::kInvitationRejected) {
      admitted.push_back(ticket.get());
    }
  }
  return admitted;
}

void ReportWriter::CommitBatch(const std::vector<std::unique_ptr<Ticket>>& batch) {
  const std::vector<Ticket*> admitted = Admitted(batch);
  if (admitted.empty()) return;
  std::vector<const ReportRecord*> records;
  records.reserve(admitted.size());
  for (const Ticket* ticket : admitted) records.push_back(&ticket->report.record);
  auto outcomes = storage_.CommitReports(records);
  if (!outcomes) {
    std::cerr << "error: storing " << admitted.size() << " report(s) failed: " << outcomes.error() << std::endl;
    for (Ticket* ticket : admitted) ticket->outcome = SubmitOutcome::kStorageFailed;
    return;
  }
  for (std::size_t i = 0; i < admitted.size(); ++i) {
    Ticket& ticket = *admitted[i];
    if ((*outcomes)[i] == RecordOutcome::kInvitationRejected) {
      ticket.outcome = SubmitOutcome::kInvitationRejected;
      continue;
    }
    if ((*outcomes)[i] == RecordOutcome::kSurveyDeleted) {
      ticket.outcome = SubmitOutcome::kSurveyDeleted;
      continue;
    }
    if ((*outcomes)[i] == RecordOutcome::kUnavailable) {
      ticket.outcome = SubmitOutcome::kStorageUnavailable;
      continue;
    }
    if ((*outcomes)[i] == RecordOutcome::kSurveyClosed) {
      ticket.outcome = SubmitOutcome::kSurveyClosed;
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

}  // namespace deniable::server
