#include "server/surveys/survey_registry.h"

#include <iostream>

#include "core/analysis/analysis.h"
#include "core/survey/aggregate_format.h"

#include "core/survey/results.h"
#include "server/surveys/estimate_query.h"

namespace deniable::server {
namespace {

// How stored blobs of the form before corrections are checked: against the
// words until the survey's wording was corrected (core aggregate_format.h).
LegacyFingerprint LegacyCheck(const SurveyEntry& entry) {
  return entry.corrections().empty() ? LegacyFingerprint::kChecked : LegacyFingerprint::kShapeOnly;
}

}  // namespace

SurveyEntry::SurveyEntry(Survey survey) : survey_(std::move(survey)), aggregate_(survey_) {
  wordings_.push_back(std::make_unique<const Wording>(Wording{survey_, SurveyToJson(survey_)}));
  for (std::size_t q = 0; q < survey_.questions.size(); ++q) {
    if (survey_.questions[q].kind->PublicState(aggregate_.question(q))) stateful_ = true;
  }
  for (const auto& spec : survey_.analyses) {
    // Checked when the survey was created (CheckDeclaredAnalyses); a spec that no longer parses is left out.
    if (auto analysis = ParseAnalysis(survey_, spec)) declared_.emplace_back(spec, std::move(analysis).value());
  }
}

const Survey& SurveyEntry::survey() const {
  std::lock_guard<std::mutex> lock(wording_mutex_);
  return wordings_.back()->survey;
}

const nlohmann::json& SurveyEntry::definition() const {
  std::lock_guard<std::mutex> lock(wording_mutex_);
  return wordings_.back()->definition;
}

nlohmann::json SurveyEntry::corrections() const {
  std::lock_guard<std::mutex> lock(wording_mutex_);
  return corrections_;
}

std::uint64_t SurveyEntry::wording_generation() const {
  std::lock_guard<std::mutex> lock(wording_mutex_);
  return wording_generation_;
}

bool SurveyEntry::ApplyWording(Survey corrected, nlohmann::json corrections, std::optional<std::uint64_t> seen) {
  nlohmann::json definition = SurveyToJson(corrected);
  std::lock_guard<std::mutex> lock(wording_mutex_);
  if (seen && *seen != wording_generation_) return false;
  const bool same = definition == wordings_.back()->definition && corrections == corrections_;
  if (same) return false;
  if (definition != wordings_.back()->definition) {
    wordings_.push_back(std::make_unique<const Wording>(Wording{std::move(corrected), std::move(definition)}));
  }
  corrections_ = std::move(corrections);
  ++wording_generation_;
  return true;
}

Status CheckDeclaredAnalyses(const Survey& survey) {
  for (std::size_t i = 0; i < survey.analyses.size(); ++i) {
    if (auto analysis = ParseAnalysis(survey, survey.analyses[i]); !analysis) {
      return MakeError("analyses[" + std::to_string(i) + "]: " + analysis.error());
    }
  }
  return OkStatus();
}

void SurveyEntry::AddReport(const Report& report) {
  std::lock_guard<std::mutex> lock(mutex_);
  aggregate_.Add(report);
  for (auto& [spec, analysis] : declared_) analysis->Add(report);
  ++declared_respondents_;
  KeepCountsAtDuePoints();
}

std::int64_t SurveyEntry::data_version() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return data_version_;
}

Status SurveyEntry::Refresh(std::int64_t version, const std::function<Result<StoredAggregate>()>& load) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (version <= data_version_) return OkStatus();
  }
  DENIABLE_ASSIGN_OR_RETURN(const StoredAggregate stored, load());
  SurveyAggregate merged(survey_);
  for (const AggregateShard& shard : stored.shards) {
    auto part = DeserializeSurveyAggregate(survey_, shard.blob, LegacyCheck(*this));
    if (!part) {
      return MakeError("survey \"" + id() + "\": shard " + std::to_string(shard.shard) + ": " + part.error(),
                       ErrorCode::kInternal);
    }
    DENIABLE_TRY(merged.Merge(*part));
  }
  std::lock_guard<std::mutex> lock(mutex_);
  // Versions only grow: a slower refresh never replaces a newer state.
  if (stored.version > data_version_) {
    aggregate_ = std::move(merged);
    data_version_ = stored.version;
    KeepCountsAtDuePoints();
  }
  return OkStatus();
}

Status SurveyEntry::RefreshFromStore() {
  if (shared_store_ == nullptr) return OkStatus();
  DENIABLE_ASSIGN_OR_RETURN(const std::int64_t version, shared_store_->AggregateVersion(id()));
  return Refresh(version, [&] { return shared_store_->LoadAggregate(id()); });
}

namespace {

// Refreshes before serving; a store that cannot be read now is logged, and
// what is held is served: no node can commit to it either meanwhile.
void RefreshOrWarn(SurveyEntry& entry) {
  if (auto refreshed = entry.RefreshFromStore(); !refreshed) {
    std::cerr << "warning: survey \"" << entry.id() << "\": its stored aggregate could not be read: "
              << refreshed.error() << std::endl;
  }
}

}  // namespace

void SurveyEntry::ClearAggregate() {
  std::lock_guard<std::mutex> lock(mutex_);
  aggregate_ = SurveyAggregate(survey_);
  counts_at_.clear();
  data_version_ = 0;
}

void SurveyEntry::MarkReplayed(std::int64_t version) {
  std::lock_guard<std::mutex> lock(mutex_);
  data_version_ = version;
}

bool SurveyEntry::HasDueReleases() const {
  for (std::size_t question = 0; question < survey_.questions.size(); ++question) {
    const auto ledger = Ledger(survey_.questions[question].id);
    if (ledger && !ledger->Due(Answers(question)).empty()) return true;
  }
  return false;
}

bool SurveyEntry::NeedsGlobalState() const {
  if (stateful_) return true;
  std::lock_guard<std::mutex> lock(mutex_);
  return !due_points_.empty();
}

Result<std::string> SurveyEntry::ExtendShard(const std::optional<AggregateShard>& current,
                                             const std::vector<const Report*>& reports) {
  std::lock_guard<std::mutex> lock(mutex_);
  const std::int64_t stored_version = current ? current->version : 0;
  // One node (no store shared): the shard kept is the committed one whatever
  // the stored version says (its blob is written at most once a second).
  const bool one_node = shared_store_ == nullptr;
  const bool kept = own_shard_ && (one_node || own_shard_->first == stored_version);
  if (!kept) {
    if (current) {
      auto parsed = DeserializeSurveyAggregate(survey_, current->blob, LegacyCheck(*this));
      if (!parsed) return MakeError("survey \"" + id() + "\": its shard: " + parsed.error(), ErrorCode::kInternal);
      own_shard_.emplace(stored_version, std::move(parsed).value());
    } else {
      own_shard_.emplace(0, SurveyAggregate(survey_));
    }
  }
  // Extended in a copy: the shard kept stays the committed one until the commit returns (ApplyCommitted).
  pending_shard_.emplace(stored_version + 1, own_shard_->second);
  for (const Report* report : reports) pending_shard_->second.Add(*report);
  // One node: the blob is written at most once a second, the store writing
  // nothing of the shard meanwhile and a start-up counting the reports after
  // the blob. Several nodes: at every commit, the others read it.
  const auto now = std::chrono::steady_clock::now();
  if (one_node && kept && current && now - last_blob_written_ < lazy_blob_interval_) return std::string();
  last_blob_written_ = now;
  return SerializeSurveyAggregate(survey_, pending_shard_->second);
}

void SurveyEntry::AdoptAsOwnShard() {
  std::lock_guard<std::mutex> lock(mutex_);
  own_shard_.emplace(data_version_, aggregate_);
}

void SurveyEntry::ApplyCommitted(const std::vector<const Report*>& reports, std::int64_t before, bool committed) {
  bool counted = false;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!committed) {
      pending_shard_.reset();  // the shard kept is still the stored one
      return;
    }
    if (pending_shard_) own_shard_ = std::move(pending_shard_);
    pending_shard_.reset();
    for (const Report* report : reports) {
      for (auto& [spec, analysis] : declared_) analysis->Add(*report);
    }
    declared_respondents_ += static_cast<std::int64_t>(reports.size());
    // Several nodes: another node committed meanwhile, the next refresh reads the shards.
    // One node: nobody else commits, and the version held leads the stored one (ExtendShard).
    const bool one_node = shared_store_ == nullptr;
    if (!one_node && data_version_ != before) return;
    for (const Report* report : reports) {
      aggregate_.Add(*report);
      KeepCountsAtDuePoints();  // exactly at each count, as the reports are counted one by one
    }
    data_version_ = one_node ? data_version_ + 1 : before + 1;
    counted = !reports.empty();
  }
  if (counted && reports_counted_) reports_counted_();  // marks the survey for warming, and returns
}

void SurveyEntry::KeepCountsAtDuePoints() {
  for (const auto& [question, points] : due_points_) {
    const KindAggregate& answers = aggregate_.question(question);
    const std::pair<std::size_t, std::int64_t> key{question, answers.n()};
    // The first time the count is reached: a report that skips the question leaves n, and the kept counts, as they are.
    if (points.count(answers.n()) && !counts_at_.count(key)) {
      counts_at_[key] = survey_.questions[question].kind->confidential()->ExactCounts(answers);
    }
  }
}

void SurveyEntry::TrackDuePoints(const std::string& question_id, const ReleaseLedger& ledger) {
  const std::size_t question = *survey_.QuestionIndex(question_id);
  std::set<std::int64_t> points;
  for (const ScheduledRelease& item : ledger.scheduled()) points.insert(item.at_respondents);
  std::lock_guard<std::mutex> lock(mutex_);
  for (auto it = counts_at_.begin(); it != counts_at_.end();) {  // made or cancelled: no longer needed
    it = it->first.first == question && !points.count(it->first.second) ? counts_at_.erase(it) : std::next(it);
  }
  if (points.empty()) {
    due_points_.erase(question);
  } else {
    due_points_[question] = std::move(points);
  }
  // A release scheduled at the count the question has just reached (answers raced the scheduling).
  KeepCountsAtDuePoints();
}

SurveyStatus SurveyEntry::status() const {
  std::lock_guard<std::mutex> lock(status_mutex_);
  return status_;
}

void SurveyEntry::SetStatus(SurveyStatus status) {
  std::lock_guard<std::mutex> lock(status_mutex_);
  status_ = std::move(status);
  ++status_generation_;
}

std::uint64_t SurveyEntry::status_generation() const {
  std::lock_guard<std::mutex> lock(status_mutex_);
  return status_generation_;
}

std::uint64_t SurveyEntry::ledgers_generation() const {
  std::lock_guard<std::mutex> lock(ledgers_mutex_);
  return ledgers_generation_;
}

bool SurveyEntry::ApplyStoredStatus(const SurveyStatus& status, std::uint64_t seen) {
  std::lock_guard<std::mutex> lock(status_mutex_);
  if (status_generation_ != seen) return false;
  if (status_.closed == status.closed && status_.closes_at == status.closes_at) return false;
  status_ = status;
  ++status_generation_;
  return true;
}

Result<bool> SurveyEntry::ApplyStoredLedger(const std::string& question_id, ReleaseLedger stored, std::uint64_t seen) {
  // One release at a time: a release deciding on the ledger held here stores over it, or conflicts.
  std::lock_guard<std::mutex> one_at_a_time(release_mutex_);
  const auto current = Ledger(question_id);
  if (!current) return MakeError("question \"" + question_id + "\" is not answered in confidence");
  if (current->budget() != stored.budget()) {
    return MakeError("question \"" + question_id + "\": the stored ledger's budget differs from the definition's");
  }
  if (current->ToJson() == stored.ToJson()) return false;
  {
    std::lock_guard<std::mutex> lock(ledgers_mutex_);
    if (ledgers_generation_ != seen) return false;
  }
  InstallLedger(question_id, std::move(stored));
  return true;
}

void SurveyEntry::InstallLedger(const std::string& question_id, ReleaseLedger ledger) {
  TrackDuePoints(question_id, ledger);
  std::lock_guard<std::mutex> lock(ledgers_mutex_);
  ledgers_.insert_or_assign(question_id, std::move(ledger));
  ++ledgers_generation_;
}

std::optional<std::string> SurveyEntry::ClosedReason(UnixSeconds now) const {
  const SurveyStatus current = status();
  if (current.closed) return "survey \"" + id() + "\" is closed: its organisers stopped collecting answers";
  if (current.closes_at.empty()) return std::nullopt;
  // Compared as instants. A stored time that does not parse (written loosely
  // by an older version) closes the survey rather than leaving it open forever.
  const auto closes = ParseRfc3339(current.closes_at);
  if (!closes || now >= *closes) {
    return "survey \"" + id() + "\" closed at " + current.closes_at + ": it no longer accepts answers";
  }
  return std::nullopt;
}

std::int64_t SurveyEntry::respondents() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return aggregate_.respondents();
}

nlohmann::json SurveyEntry::PublicStates() {
  RefreshOrWarn(*this);
  std::lock_guard<std::mutex> lock(mutex_);
  // The state changes only with a new report: cached by the data version.
  if (!state_cache_ || state_cache_->first != data_version_) {
    state_cache_.emplace(data_version_, PublicStatesToJson(survey_, aggregate_));
  }
  return state_cache_->second;
}

Status SurveyEntry::Admits(const Report& report) {
  if (stateful_) RefreshOrWarn(*this);  // a hint for the sender; the commit decides against the global state
  std::lock_guard<std::mutex> lock(mutex_);
  return aggregate_.Admits(survey_, report);
}

bool SurveyEntry::RefusedAsComplete(const Report& report) const {
  std::lock_guard<std::mutex> lock(mutex_);
  return aggregate_.RefusedAsComplete(report);
}

std::vector<Status> SurveyEntry::AdmitInOrder(const std::vector<const Report*>& reports) const {
  std::lock_guard<std::mutex> lock(mutex_);
  return aggregate_.AdmitInOrder(survey_, reports);
}

std::pair<SurveyAggregate, std::int64_t> SurveyEntry::Snapshot() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return {aggregate_, data_version_};
}

namespace {

// The refusals of a results computation, as errors of their kind: the
// estimation lane was full, the client already has a computation (the state
// this one clashes with), the client disconnected.
Error EstimationBusy() { return MakeError("results estimation is busy", ErrorCode::kBusy); }
Error ClientEstimationLimit() {
  return MakeError("this client already has a results computation", ErrorCode::kConflict);
}
Error EstimationCancelled() { return MakeError("the client disconnected", ErrorCode::kCancelled); }

// How a refused computation leaves the results cache: the cache passes an
// exception from its computation to every request waiting for it and keeps
// nothing, which is what a refusal needs (results_cache.h). It never leaves
// this file: Results and Analysis return its error.
struct RefusedComputation {
  Error error;
};

nlohmann::json OrRefuse(Result<nlohmann::json> document) {
  if (!document) throw RefusedComputation{std::move(document).failure()};
  return std::move(document).value();
}

}  // namespace

Result<ResultsCache::Lookup> SurveyEntry::Results(const EstimateQuery& query, EstimationLimits& limits,
                                                  const EstimationRequester& requester) {
  const bool default_options = query.key == DefaultEstimateOptionsKey();
  QuestionLedgers ledgers;
  std::uint64_t generation = 0;
  {
    std::lock_guard<std::mutex> lock(ledgers_mutex_);
    ledgers = ledgers_;
    generation = ledgers_generation_;
  }
  // A release or a correction of wording changes the document without a new
  // report: their generations are part of the key.
  const std::string key = query.key + "\n" + std::to_string(generation) + "\n" + std::to_string(wording_generation());
  RefreshOrWarn(*this);
  const auto gone = [&requester] { return requester.client_gone && requester.client_gone->load(); };
  // At most three tries: another request's computation may be refused for its own reasons.
  for (int attempt = 1;; ++attempt) {
    bool computed_here = false;
    try {
      // Keyed by the data version: a document is never served once the store holds more.
      if (auto cached = results_cache_.Find(data_version(), key)) return ResultsCache::Lookup{std::move(cached), false};
      const auto [snapshot, version] = Snapshot();
      return results_cache_.GetOrCompute(version, key, [&, &snapshot = snapshot] {
        computed_here = true;
        return OrRefuse(Compute(snapshot, ledgers, query.options, default_options, limits, requester));
      }, default_options);
    } catch (const RefusedComputation& refused) {
      if (computed_here || attempt >= 3 || gone()) return refused.error;
    }
  }
}

Result<nlohmann::json> SurveyEntry::Compute(const SurveyAggregate& snapshot, const QuestionLedgers& ledgers,
                                            const nlohmann::json& options, bool default_options,
                                            EstimationLimits& limits, const EstimationRequester& requester) const {
  // The default document of most kinds (and of numeric questions without
  // reports) costs microseconds. Any other option set passes the gate and the
  // per-client limit, whatever the kinds: a block's cross-tab of 59,049 cells
  // cost 9.3 s of CPU per anonymous request and ran ungated before.
  if (default_options && !ResultsNeedEstimation(survey_, snapshot)) {
    return SurveyResultsToJson(survey(), snapshot, options, {}, ledgers);
  }
  const std::function<bool()> gone = [flag = requester.client_gone] { return flag && flag->load(); };
  const bool per_client = !default_options && !requester.trusted && !requester.client.empty();
  const auto claim = per_client ? limits.clients.TryClaim(requester.client) : std::nullopt;
  if (per_client && !claim) return ClientEstimationLimit();
  const auto permit = (default_options ? limits.defaults : limits.custom).Enter(gone);
  if (gone()) return EstimationCancelled();
  if (!permit) return EstimationBusy();
  // The bootstrap's replicates on the worker pool too (the warmer's on its own thread only).
  const ParallelFor parallel = requester.background ? ParallelFor() : limits.workers.Executor();
  nlohmann::json document = SurveyResultsToJson(survey(), snapshot, options, gone, ledgers, parallel);
  if (gone()) return EstimationCancelled();
  return document;
}

void SurveyEntry::WarmDefaultResults(EstimationLimits& limits) {
  auto key = EstimateOptionsKey(&survey_, nlohmann::json::object());
  if (!key) return;
  EstimationRequester warmer;
  warmer.trusted = true;
  warmer.background = true;
  (void)Results(EstimateQuery{nlohmann::json::object(), std::move(key).value()}, limits, warmer);
}

Result<ResultsCache::Lookup> SurveyEntry::Analysis(const nlohmann::json& spec, const nlohmann::json& options,
                                                   const ReportReader& read, EstimationLimits& limits,
                                                   const EstimationRequester& requester) {
  const std::string key =
      "analysis\n" + spec.dump() + "\n" + options.dump() + "\n" + std::to_string(wording_generation());
  const auto gone = [&requester] { return requester.client_gone && requester.client_gone->load(); };
  RefreshOrWarn(*this);
  for (int attempt = 1;; ++attempt) {
    bool computed_here = false;
    try {
      auto [declared, declared_version] = DeclaredSnapshot(spec);
      const std::int64_t count = declared ? declared_version : data_version();
      if (auto cached = results_cache_.Find(count, key)) return ResultsCache::Lookup{std::move(cached), false};
      return results_cache_.GetOrCompute(count, key, [&] {
        computed_here = true;
        if (!declared) return OrRefuse(ComputeAnalysis(spec, options, read, limits, requester));
        // Kept as reports arrived: nothing to read, but its estimation passes the gate like any other.
        const ReportReader nothing = [](const auto&, const auto&) { return OkStatus(); };
        return OrRefuse(ComputeAnalysis(spec, options, nothing, limits, requester, std::move(declared)));
      });
    } catch (const RefusedComputation& refused) {
      if (computed_here || attempt >= 3 || gone()) return refused.error;
    }
  }
}

std::pair<std::unique_ptr<deniable::Analysis>, std::int64_t> SurveyEntry::DeclaredSnapshot(
    const nlohmann::json& spec) const {
  std::lock_guard<std::mutex> lock(mutex_);
  for (const auto& [declared_spec, analysis] : declared_) {
    // Only a copy with every report counted (one node; not one that missed another node's).
    if (declared_spec == spec && declared_respondents_ == aggregate_.respondents()) {
      return {analysis->Clone(), data_version_};
    }
  }
  return {nullptr, 0};
}

Result<nlohmann::json> SurveyEntry::ComputeAnalysis(const nlohmann::json& spec, const nlohmann::json& options,
                                                    const ReportReader& read, EstimationLimits& limits,
                                                    const EstimationRequester& requester,
                                                    std::unique_ptr<deniable::Analysis> kept) const {
  const std::function<bool()> gone = [flag = requester.client_gone] { return flag && flag->load(); };
  const bool per_client = !requester.trusted && !requester.client.empty();
  const auto claim = per_client ? limits.clients.TryClaim(requester.client) : std::nullopt;
  if (per_client && !claim) return ClientEstimationLimit();
  const auto permit = limits.custom.Enter(gone);
  if (gone()) return EstimationCancelled();
  if (!permit) return EstimationBusy();
  auto analysis = kept ? Result<std::unique_ptr<deniable::Analysis>>(std::move(kept)) : ParseAnalysis(survey(), spec);
  if (!analysis) return MakeError(analysis.error(), ErrorCode::kInternal);  // validated by the handler
  std::int64_t unreadable = 0;
  const Status done = read([&](const std::string& body) {
    auto document = nlohmann::json::parse(body, nullptr, false);
    auto report = document.is_discarded() ? Result<Report>(MakeError("not JSON")) : ParseReport(survey_, document);
    if (report) (*analysis)->Add(*report);
    else ++unreadable;
  }, gone);
  if (gone()) return EstimationCancelled();
  if (!done) return MakeError("reading the survey's reports: " + done.error(), ErrorCode::kUnavailable);
  if (unreadable > 0) {
    std::cerr << "analysis: survey \"" << id() << "\": " << unreadable << " stored reports could not be read" << std::endl;
  }
  auto document = (*analysis)->Estimate(options, gone);
  if (gone()) return EstimationCancelled();
  // An analysis the data cannot support (too few respondents, a fit that
  // fails) says why in its document, as a question's results do.
  if (!document) return nlohmann::json{{"analysis", spec}, {"n", (*analysis)->n()}, {"error", document.error()}};
  return *std::move(document);
}

std::optional<ReleaseLedger> SurveyEntry::Ledger(const std::string& question_id) const {
  const auto index = survey_.QuestionIndex(question_id);
  if (!index) return std::nullopt;
  const ConfidentialAnswers* confidential = survey_.questions[*index].kind->confidential();
  if (!confidential) return std::nullopt;
  std::lock_guard<std::mutex> lock(ledgers_mutex_);
  const auto found = ledgers_.find(question_id);
  return found == ledgers_.end() ? ReleaseLedger(confidential->budget()) : found->second;
}

Status SurveyEntry::RestoreLedger(const std::string& question_id, ReleaseLedger ledger) {
  const auto current = Ledger(question_id);
  if (!current) return MakeError("question \"" + question_id + "\" is not answered in confidence");
  if (current->budget() != ledger.budget()) {
    return MakeError("question \"" + question_id + "\": the stored ledger's budget differs from the definition's");
  }
  InstallLedger(question_id, std::move(ledger));
  return OkStatus();
}

std::vector<std::int64_t> SurveyEntry::ExactCounts(std::size_t question) {
  RefreshOrWarn(*this);
  std::lock_guard<std::mutex> lock(mutex_);
  return survey_.questions[question].kind->confidential()->ExactCounts(aggregate_.question(question));
}

std::int64_t SurveyEntry::Answers(std::size_t question) const {
  std::lock_guard<std::mutex> lock(mutex_);
  return aggregate_.question(question).n();
}

Result<LedgerRelease> SurveyEntry::DrawRelease(std::size_t question, const ReleaseRequest& request, RandomSource& random,
                                               const std::string& created_at, std::optional<std::int64_t> at) const {
  const ConfidentialAnswers& confidential = *survey_.questions[question].kind->confidential();
  std::vector<std::int64_t> counts;
  LedgerRelease release;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    const auto kept = at ? counts_at_.find({question, *at}) : counts_at_.end();
    if (kept != counts_at_.end()) {
      counts = kept->second;
      release.respondents = *at;
    } else {  // not scheduled, or the count was passed before the schedule was stored: the counts now
      counts = confidential.ExactCounts(aggregate_.question(question));
      release.respondents = aggregate_.question(question).n();
    }
  }
  DENIABLE_ASSIGN_OR_RETURN(auto drawn, RunRelease(request, counts, confidential.sensitivity(), random));
  release.request = request;
  release.created_at = created_at;
  release.sensitivity = confidential.sensitivity();
  release.values = std::move(drawn.values);
  for (const ReleaseGroup& group : drawn.groups) release.groups.push_back(group.bins);
  return release;
}

namespace {

// Whether the stored ledger (its text; nullopt: none) is the one a release was decided on.
bool SameLedger(const std::optional<std::string>& stored, const std::optional<nlohmann::json>& based_on) {
  if (!stored || !based_on) return !stored && !based_on;
  const auto json = nlohmann::json::parse(*stored, nullptr, false);
  if (json.is_discarded()) return false;
  const auto ledger = ReleaseLedger::FromJson(json);
  return ledger && ledger->ToJson() == *based_on;
}

// A release refused by the survey's state (its budget, its answers).
Error Refusal(std::string message) { return MakeError(std::move(message), ErrorCode::kConflict); }

}  // namespace

Status SurveyEntry::StoreLedger(const std::string& question_id, ReleaseLedger ledger, const PersistLedger& persist) {
  // Stored before it is served: a release nobody can read again was never
  // published. And stored only over the ledger it was decided on: a ledger
  // that changed meanwhile (another node's release) is a conflict, so no
  // budget is spent twice.
  std::optional<nlohmann::json> based_on;
  {
    std::lock_guard<std::mutex> lock(ledgers_mutex_);
    const auto found = ledgers_.find(question_id);
    if (found != ledgers_.end()) based_on = found->second.ToJson();
  }
  const std::string text = ledger.ToJson().dump();
  std::optional<std::string> newer;  // the stored ledger, when it is not the one decided on
  auto stored = persist(question_id, [&](const std::optional<std::string>& current) -> Result<std::string> {
    if (!SameLedger(current, based_on)) {
      newer = current;
      return MakeError("question \"" + question_id + "\": its stored ledger changed since this release was decided " +
                           "(another server node released or cancelled meanwhile): nothing was stored; try again",
                       ErrorCode::kConflict);
    }
    return text;
  });
  if (!stored) {
    // Another node's ledger, read in the transaction that refused this one: a retry decides on it.
    if (stored.error_code() == ErrorCode::kConflict && newer) {
      const auto json = nlohmann::json::parse(*newer, nullptr, false);
      auto reloaded = json.is_discarded() ? Result<ReleaseLedger>(MakeError("not JSON")) : ReleaseLedger::FromJson(json);
      if (reloaded && reloaded->budget() == ledger.budget()) {
        InstallLedger(question_id, std::move(reloaded).value());
      } else {
        std::cerr << "error: survey \"" << id() << "\" question \"" << question_id
                  << "\": the stored ledger cannot be read: " << (reloaded ? "its budget differs" : reloaded.error())
                  << std::endl;
      }
    }
    return stored;
  }
  InstallLedger(question_id, std::move(ledger));
  return OkStatus();
}

ReleaseOutcome SurveyEntry::Release(const std::string& question_id, const ReleaseRequest& request,
                                    std::optional<std::int64_t> at_respondents, RandomSource& random,
                                    const std::string& now, const PersistLedger& persist) {
  std::lock_guard<std::mutex> one_at_a_time(release_mutex_);
  RefreshOrWarn(*this);  // the global counts
  auto ledger = Ledger(question_id);
  if (!ledger) {
    return ReleaseRefused{ReleaseRefused::kNotConfidential,
                          MakeError("question \"" + question_id + "\" is not answered in confidence: its reports are "
                                    "randomised on the device and its results are estimated, not released",
                                    ErrorCode::kConflict)};
  }
  if (auto fits = ledger->CanSpend(request.epsilon); !fits) return ReleaseRefused{ReleaseRefused::kOverBudget, Refusal(fits.error())};
  const std::size_t question = *survey_.QuestionIndex(question_id);
  const std::int64_t answers = Answers(question);
  if (at_respondents && *at_respondents > answers) {
    auto scheduled = ledger->Schedule({"", request, *at_respondents, now});
    if (!scheduled) return ReleaseRefused{ReleaseRefused::kOverBudget, Refusal(scheduled.error())};
    ScheduledRelease made = **scheduled;
    if (auto stored = StoreLedger(question_id, std::move(*ledger), persist); !stored) {
      return ReleaseRefused{ReleaseRefused::kStorage, stored.failure()};
    }
    return made;
  }
  if (answers == 0) {
    return ReleaseRefused{ReleaseRefused::kNoAnswers,
                          Refusal("question \"" + question_id + "\" has no answers yet: nothing to release")};
  }
  auto drawn = DrawRelease(question, request, random, now);
  if (!drawn) return ReleaseRefused{ReleaseRefused::kStorage, MakeError("the release failed: " + drawn.error(), ErrorCode::kInternal)};
  auto added = ledger->Add(std::move(drawn).value());
  if (!added) return ReleaseRefused{ReleaseRefused::kOverBudget, Refusal(added.error())};
  LedgerRelease made = **added;
  if (auto stored = StoreLedger(question_id, std::move(*ledger), persist); !stored) {
    return ReleaseRefused{ReleaseRefused::kStorage, stored.failure()};
  }
  return made;
}

Status SurveyEntry::RunDueReleases(RandomSource& random, const std::string& now, const PersistLedger& persist) {
  std::lock_guard<std::mutex> one_at_a_time(release_mutex_);
  RefreshOrWarn(*this);
  for (std::size_t question = 0; question < survey_.questions.size(); ++question) {
    const std::string& question_id = survey_.questions[question].id;
    // The counts are the global ones (refreshed above from the merged
    // shards); the exact counts at a due point are kept by the node whose
    // commit crossed it (NeedsGlobalState). Another node that finds it due
    // first makes it with the counts now; either way the ledger's
    // read-modify-write makes it once.
    for (int attempt = 1;; ++attempt) {
      auto ledger = Ledger(question_id);
      if (!ledger || ledger->scheduled().empty()) break;
      const auto due = ledger->Due(Answers(question));
      if (due.empty()) break;
      for (const ScheduledRelease& item : due) {
        auto drawn = DrawRelease(question, item.request, random, now, item.at_respondents);
        if (!drawn) return MakeError("scheduled release " + item.id + " of question \"" + question_id + "\": " + drawn.error());
        if (auto made = ledger->Fulfil(item.id, std::move(drawn).value()); !made) return MakeError(made.error());
      }
      // Exactly once across nodes: over a ledger another node changed (it
      // may have made these releases) nothing is stored, and the stored
      // ledger, reloaded, is decided on again.
      auto stored = StoreLedger(question_id, std::move(*ledger), persist);
      if (stored) break;
      if (stored.error_code() != ErrorCode::kConflict || attempt >= 3) return stored;
    }
  }
  return OkStatus();
}

Status SurveyEntry::CancelScheduled(const std::string& question_id, const std::string& scheduled_id,
                                    const PersistLedger& persist) {
  std::lock_guard<std::mutex> one_at_a_time(release_mutex_);
  auto ledger = Ledger(question_id);
  if (!ledger) return MakeError("question \"" + question_id + "\" is not answered in confidence");
  DENIABLE_TRY(ledger->Cancel(scheduled_id));
  return StoreLedger(question_id, std::move(*ledger), persist);
}

void SurveyRegistry::Remove(const std::string& id) {
  std::unique_lock<std::shared_mutex> lock(mutex_);
  entries_.erase(id);
  removed_.insert(id);
}

std::shared_ptr<SurveyEntry> SurveyRegistry::Find(const std::string& id) const {
  std::shared_lock<std::shared_mutex> lock(mutex_);
  const auto it = entries_.find(id);
  return it == entries_.end() ? nullptr : it->second;
}

SurveyRegistry::SurveyRegistry(std::size_t results_cache_bytes, ResultsWarmer::Timing warming)
    : cache_memory_(std::make_shared<CacheMemory>(results_cache_bytes)),
      warmer_(std::make_shared<ResultsWarmer>(
          [this](SurveyEntry& entry) { entry.WarmDefaultResults(estimation_limits_); }, warming)) {}

SurveyRegistry::~SurveyRegistry() { warmer_->Stop(); }

bool SurveyRegistry::Add(std::shared_ptr<SurveyEntry> entry) {
  std::unique_lock<std::shared_mutex> lock(mutex_);
  const std::string id = entry->id();
  if (removed_.count(id)) return false;
  entry->UseCacheMemory(cache_memory_);
  if (shared_store_ != nullptr) entry->CheckVersionsIn(shared_store_);
  entry->WhenReportsCounted([warmer = warmer_, weak = std::weak_ptr<SurveyEntry>(entry)] {
    if (auto counted = weak.lock()) warmer->Poke(counted);
  });
  return entries_.emplace(id, std::move(entry)).second;
}

std::vector<std::shared_ptr<SurveyEntry>> SurveyRegistry::All() const {
  std::shared_lock<std::shared_mutex> lock(mutex_);
  std::vector<std::shared_ptr<SurveyEntry>> all;
  all.reserve(entries_.size());
  for (const auto& item : entries_) all.push_back(item.second);
  return all;
}

}  // namespace deniable::server
