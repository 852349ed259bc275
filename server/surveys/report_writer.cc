#include "server/surveys/report_writer.h"

#include <algorithm>
#include <iostream>
#include <map>
#include <string>
#include <utility>

#include "server/base/wake_batch.h"

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
      // While a batch gathers, the writer wakes once, when it is whole. (No
      // system call either while it commits: nobody waits.)
      if (queue_.size() >= notify_at_) work_ready_.notify_one();
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
    const auto started = std::chrono::steady_clock::now();
    CommitBatch(batch);
    last_commit_ = std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - started);
    {
      WakeBatch wakes;  // the threads waiting for these answers are woken once each, not once per report
      for (const auto& ticket : batch) ticket->done(ticket->outcome);
    }
    std::lock_guard<std::mutex> lock(mutex_);
    in_play_ = batch.size() + queue_.size();
  }
}

std::vector<std::unique_ptr<ReportWriter::Ticket>> ReportWriter::TakeBatch() {
  std::unique_lock<std::mutex> lock(mutex_);
  work_ready_.wait(lock, [&] { return !queue_.empty() || stopping_; });
  // Gathers (see report_writer.h): the reports in play at the last commit's end, for a moment at most.
  const std::size_t wanted = std::min(in_play_, max_batch_);
  if (queue_.size() < wanted && !stopping_) {
    notify_at_ = wanted;
    work_ready_.wait_for(lock, std::min(last_commit_, kMaxGather),
                         [&] { return queue_.size() >= wanted || stopping_; });
    notify_at_ = 1;
  }
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
// admits are refused (the page prepares them again), never counted. The
// storage calls this inside its commit, after refusing the reports whose
// tokens it will not take (so they take no round's place from the honest
// reports after them), and only this thread adds to the aggregates, so what
// is admitted here is what is counted.
std::vector<bool> ReportWriter::Admit(const std::vector<std::unique_ptr<Ticket>>& batch,
                                      const std::vector<std::size_t>& candidates) {
  std::map<SurveyEntry*, std::vector<std::size_t>> by_survey;  // each survey's places in `candidates`, in order
  for (std::size_t k = 0; k < candidates.size(); ++k) by_survey[batch[candidates[k]]->report.survey.get()].push_back(k);
  std::vector<bool> admitted(candidates.size(), true);
  for (const auto& [survey, places] : by_survey) {
    std::vector<const Report*> reports;
    reports.reserve(places.size());
    for (std::size_t k : places) reports.push_back(&batch[candidates[k]]->report.report);
    const std::vector<Status> verdicts = survey->AdmitInOrder(reports);
    for (std::size_t j = 0; j < places.size(); ++j) admitted[places[j]] = verdicts[j].ok();
  }
  return admitted;
}

SubmitOutcome ReportWriter::Outcome(RecordOutcome stored) {
  switch (stored) {
    case RecordOutcome::kStored:
      return SubmitOutcome::kCommitted;
    case RecordOutcome::kTokenUsed:
      return SubmitOutcome::kTokenUsed;
    case RecordOutcome::kNotAdmitted:
      return SubmitOutcome::kNotAdmitted;
    case RecordOutcome::kSurveyDeleted:
      return SubmitOutcome::kSurveyDeleted;
    case RecordOutcome::kSurveyClosed:
      return SubmitOutcome::kSurveyClosed;
    case RecordOutcome::kUnavailable:
      return SubmitOutcome::kStorageUnavailable;
    case RecordOutcome::kFailed:
      break;
  }
  return SubmitOutcome::kStorageFailed;
}

namespace {

// The batch's side of the shared aggregates (storage.h, AggregateHooks): each
// survey's entry refreshes, extends this node's shard, and remembers what the
// commit stored and on which data version, to count it once COMMIT returned.
class BatchAggregates final : public AggregateHooks {
 public:
  BatchAggregates(std::vector<SurveyEntry*> entries, std::vector<const Report*> reports)
      : entries_(std::move(entries)), reports_(std::move(reports)) {
    for (SurveyEntry* entry : entries_) by_id_.emplace(entry->id(), entry);
  }

  bool NeedsGlobalState(const std::string& survey_id) const override {
    const auto found = by_id_.find(survey_id);
    return found != by_id_.end() && found->second->NeedsGlobalState();
  }

  Status Refresh(const std::string& survey_id, std::int64_t version,
                 const std::function<Result<StoredAggregate>()>& load) override {
    const auto found = by_id_.find(survey_id);
    return found == by_id_.end() ? OkStatus() : found->second->Refresh(version, load);
  }

  Result<std::string> Extend(const std::string& survey_id, const std::optional<AggregateShard>& current,
                             std::int64_t survey_version, const std::vector<std::size_t>& stored) override {
    const auto found = by_id_.find(survey_id);
    if (found == by_id_.end()) return MakeError("no entry for survey \"" + survey_id + "\"", ErrorCode::kInternal);
    Extended& extended = extended_[found->second];
    extended.before = survey_version;
    extended.reports.clear();
    for (std::size_t i : stored) extended.reports.push_back(reports_[i]);
    return found->second->ExtendShard(current, extended.reports);
  }

  // After CommitReports: counts what was stored (committed), or forgets the shards extended (not).
  void Apply(bool committed) {
    for (const auto& [entry, extended] : extended_) entry->ApplyCommitted(extended.reports, extended.before, committed);
  }

 private:
  struct Extended {
    std::int64_t before = 0;
    std::vector<const Report*> reports;
  };
  std::vector<SurveyEntry*> entries_;  // per record of the batch
  std::vector<const Report*> reports_;
  std::map<std::string, SurveyEntry*> by_id_;
  std::map<SurveyEntry*, Extended> extended_;
};

}  // namespace

void ReportWriter::CommitBatch(const std::vector<std::unique_ptr<Ticket>>& batch) {
  std::vector<const ReportRecord*> records;
  std::vector<SurveyEntry*> entries;
  std::vector<const Report*> reports;
  records.reserve(batch.size());
  for (const auto& ticket : batch) {
    records.push_back(&ticket->report.record);
    entries.push_back(ticket->report.survey.get());
    reports.push_back(&ticket->report.report);
  }
  BatchAggregates aggregates(std::move(entries), std::move(reports));
  auto outcomes = storage_.CommitReports(
      records, [&](const std::vector<std::size_t>& candidates) { return Admit(batch, candidates); }, &aggregates);
  // Counted before the handlers are woken: a 201 is visible in the results.
  aggregates.Apply(outcomes.ok());
  if (!outcomes) {
    std::cerr << "error: storing " << batch.size() << " report(s) failed: " << outcomes.error() << std::endl;
    // kUnavailable: the store cannot be reached now (PostgreSQL restarting): 503, try again.
    const SubmitOutcome failed = outcomes.error_code() == ErrorCode::kUnavailable ? SubmitOutcome::kStorageUnavailable
                                                                                   : SubmitOutcome::kStorageFailed;
    for (const auto& ticket : batch) ticket->outcome = failed;
    return;
  }
  for (std::size_t i = 0; i < batch.size(); ++i) batch[i]->outcome = Outcome((*outcomes)[i]);
}

}  // namespace deniable::server
