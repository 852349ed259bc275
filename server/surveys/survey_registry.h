// The surveys the server knows, in memory: each with its parsed definition,
// canonical JSON, the running aggregate that estimation reads (so results
// cost O(options) whatever the number of reports), and the cache of computed
// results documents. Thread-safe.
#pragma once

#include <atomic>
#include <chrono>
#include <functional>
#include <optional>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <shared_mutex>
#include <string>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/central/release_ledger.h"
#include "core/common/random_source.h"
#include "core/oprf/voprf.h"
#include "core/analysis/analysis.h"
#include "core/survey/aggregate.h"
#include "core/survey/results.h"
#include "server/surveys/estimate_query.h"
#include "core/survey/report.h"
#include "core/survey/survey.h"
#include "server/storage/storage.h"
#include "server/surveys/estimation_gate.h"
#include "server/surveys/results_cache.h"
#include "server/surveys/results_warmer.h"
#include "server/base/utc_time.h"

namespace deniable::server {

// Who asks for a results document, for the estimation limits.
struct EstimationRequester {
  std::string client;   // ClientKey of the remote address ("" unknown: not limited per client)
  bool trusted = false;  // the admin: not limited per client (still gated)
  std::shared_ptr<const std::atomic<bool>> client_gone;  // null: never gone
  // The server's own warming (results_warmer.h): on the calling thread only,
  // without the worker pool's helpers, so it never takes a reader's cores.
  bool background = false;
};

// Why a release was not made.
struct ReleaseRefused {
  enum Reason { kNotConfidential, kOverBudget, kNoAnswers, kStorage } reason;
  // Its kind matters for kStorage (the handler maps it through the error
  // table): kConflict when another node changed the ledger meanwhile (the
  // entry has reloaded it: a retry is decided on the stored ledger),
  // kNotFound when the survey was deleted, else the store's failure.
  Error error;
};

using ReleaseOutcome = std::variant<LedgerRelease, ScheduledRelease, ReleaseRefused>;
// Stores a question's whole ledger durably, as a read-modify-write of the
// stored one (Storage::UpdateLedger): the question id and the update.
using PersistLedger = std::function<Status(const std::string& question_id, const LedgerUpdate& update)>;

// Whether a survey accepts reports: closed by the admin, or from a closing time.
struct SurveyStatus {
  bool closed = false;
  std::string closes_at;  // "" or ISO 8601 UTC (server/base/utc_time.h)
};

class SurveyEntry {
 public:
  explicit SurveyEntry(Survey survey);

  // The survey as last corrected: its words may be corrected while it runs
  // (core/survey/text_correction.h), its structure never (what reports and
  // the aggregate depend on). A reference stays valid for the entry's life:
  // each wording served is kept (corrections are rare admin actions).
  const Survey& survey() const;
  const std::string& id() const { return survey_.id; }
  // Canonical definition (core SurveyToJson) of survey(), as stored and served.
  const nlohmann::json& definition() const;

  // --- corrections of wording
  // The corrections made so far, oldest first: [{"made_at", "changes": [...]}].
  nlohmann::json corrections() const;
  // Moves with every wording applied (part of the results cache's key: the
  // documents carry the words).
  std::uint64_t wording_generation() const;
  // Serves `corrected` (the same survey in other words) and `corrections`
  // from now on, unless the wording changed since generation `seen` (a sync
  // that read the store before this node's own correction); whether it
  // changed anything.
  bool ApplyWording(Survey corrected, nlohmann::json corrections,
                    std::optional<std::uint64_t> seen = std::nullopt);

  void AddReport(const Report& report);

  // --- the aggregate shared by nodes (storage.h, "aggregates shared by nodes")
  // The aggregate held is the survey's global one: the merge of its stored
  // shards, of data version data_version(). This node's commits add their
  // reports to it (ApplyCommitted) when it was current before them; another
  // node's commits are read from the shards (Refresh), only when the stored
  // version differs from the one held. Results, analyses and public states are
  // cached by that version, so none is served stale once the store says more.
  std::int64_t data_version() const;
  // With a store shared by several nodes, serving results, public states,
  // answers' counts and admission first reads the stored version (one cheap
  // query) and refreshes when it moved. Without (SQLite, one node: only this
  // node's writer commits, and it updates the entry), nothing is read.
  // Set once, before the entry is shared.
  void CheckVersionsIn(AggregateStore* store) { shared_store_ = store; }
  // Replaces the aggregate by the merge of `stored`'s shards, when its version
  // differs from the one held (start-up; another node's commit). The counts
  // kept for scheduled releases are not re-derived: a due point crossed by
  // another node's commit is that node's to keep (it held the global state in
  // its commit, NeedsGlobalState).
  Status Refresh(std::int64_t version, const std::function<Result<StoredAggregate>()>& load);
  // At start, for a survey rebuilt from its reports (AddReport): ClearAggregate
  // first, MarkReplayed after, with the data version read before the replay
  // (a commit during the replay makes the store's version newer: refreshed).
  void ClearAggregate();
  void MarkReplayed(std::int64_t version);
  // Whether a scheduled release's count is reached but the release not made.
  bool HasDueReleases() const;
  // Refresh against the shared store, if any (CheckVersionsIn).
  Status RefreshFromStore();
  // Whether admission or a scheduled release needs the global state at commit time.
  bool NeedsGlobalState() const;
  // One node, one shard (SQLite), at start: the aggregate loaded is this
  // node's shard, as committed (its blob may lag: AggregateShard::through).
  void AdoptAsOwnShard();
  // How long one node keeps a large blob before rewriting it (1 s; tests set it longer).
  void SetLazyBlobInterval(std::chrono::milliseconds interval) { lazy_blob_interval_ = interval; }
  // The writer's side, inside the commit's transaction: this node's shard
  // (`current`, nullopt when it has no row) with `reports` added, as a blob.
  // The shard is kept here between commits (parsed again only when its stored
  // version is not the one kept: another node wrote the same shard).
  Result<std::string> ExtendShard(const std::optional<AggregateShard>& current, const std::vector<const Report*>& reports);
  // After the commit: adds its reports to the aggregate held when it was the
  // version before the commit (`before`), which becomes before + 1;
  // otherwise the next Refresh reads the shards. `committed` false: the
  // transaction failed, the shard kept is forgotten (read again next time).
  void ApplyCommitted(const std::vector<const Report*>& reports, std::int64_t before, bool committed);

  // An invitation survey's blind-token key (server/surveys/blind_tokens.h);
  // set once, before the entry is registered (shared), and read without a lock.
  void SetTokenKey(const oprf::KeyPair& key) { token_key_ = key; }
  const std::optional<oprf::KeyPair>& token_key() const { return token_key_; }

  SurveyStatus status() const;
  void SetStatus(SurveyStatus status);

  // --- catalog sync (catalog_sync.h): another node's changes, applied here
  // unless this node changed the same thing since the sync read the store
  // (its own change is as new, and moved the catalog version: the next sync
  // reads it). Generations move with every change of the status / ledgers.
  std::uint64_t status_generation() const;
  std::uint64_t ledgers_generation() const;
  // Sets the stored status unless the status changed since generation `seen`;
  // whether it changed anything.
  bool ApplyStoredStatus(const SurveyStatus& status, std::uint64_t seen);
  // Replaces the question's ledger with the stored one unless the ledgers
  // changed since generation `seen`; whether it changed anything. An error
  // when the stored ledger does not fit the question (its budget).
  Result<bool> ApplyStoredLedger(const std::string& question_id, ReleaseLedger stored, std::uint64_t seen);
  // Why reports are refused at `now` (ISO 8601 UTC), or nullopt when they are accepted.
  std::optional<std::string> ClosedReason(UnixSeconds now) const;
  std::int64_t respondents() const;
  // core PublicStatesToJson over the aggregate (under its lock).
  nlohmann::json PublicStates();
  // Whether the report may be counted now (a model's round: SurveyAggregate::Admits).
  Status Admits(const Report& report);
  // Whether a refusal is a complete model's (SurveyAggregate::RefusedAsComplete).
  bool RefusedAsComplete(const Report& report) const;
  // Admission of reports to be counted together, in order (SurveyAggregate::AdmitInOrder).
  std::vector<Status> AdmitInOrder(const std::vector<const Report*>& reports) const;
  // core SurveyResultsToJson over a snapshot of the aggregate, cached per
  // (respondent count, options). The aggregate's lock, which AddReport needs,
  // is held only to copy the aggregate, never while estimating. A cache miss
  // that needs costly estimation (core ResultsNeedEstimation) takes a turn
  // from `limits`: the default options from their own lane; custom options
  // from the custom lane, and (unless trusted) only while the requester's
  // client has no other such computation. Refused with an error of kind kBusy
  // (lane full), kConflict (the client has one already) or kCancelled (the
  // client disconnected: estimation stopped, nothing cached). A request that
  // waited for another's identical computation, refused for that request's
  // own reason, tries again for itself.
  // The server-wide budget of cached results (SurveyRegistry::Add sets it).
  void UseCacheMemory(std::shared_ptr<CacheMemory> memory) { results_cache_.UseMemory(std::move(memory)); }
  // Called (by the writer's thread, without a lock held) after reports were
  // counted here; SurveyRegistry::Add sets it to poke the results warmer.
  void WhenReportsCounted(std::function<void()> hook) { reports_counted_ = std::move(hook); }
  // Computes the default options' document into the cache (as a trusted,
  // background reader: results_warmer.h); errors and refusals are dropped.
  void WarmDefaultResults(EstimationLimits& limits);
  Result<ResultsCache::Lookup> Results(const EstimateQuery& query, EstimationLimits& limits,
                                       const EstimationRequester& requester);

  // Reads the survey's stored reports (their bodies, one call each) until
  // done, or until the predicate says the work is cancelled.
  using ReportReader = std::function<Status(const std::function<void(const std::string&)>& visit,
                                            const std::function<bool()>& cancelled)>;
  // An analysis across questions (core/analysis/analysis.h) of the stored
  // reports, read with `read` (or, for an analysis the survey declares, kept
  // as reports arrive, so nothing is read): cached per (respondent count, spec, options)
  // like the results, and always computed behind the custom lane of
  // `limits` and the per-client limit (it reads every report of the survey).
  // Refused as Results is; also kUnavailable when the reports cannot be
  // read. `spec` was validated (core ParseAnalysis).
  Result<ResultsCache::Lookup> Analysis(const nlohmann::json& spec, const nlohmann::json& options,
                                        const ReportReader& read, EstimationLimits& limits,
                                        const EstimationRequester& requester);

  // --- questions answered in confidence (core ConfidentialAnswers)
  // The question's ledger (empty, with its budget, before any release);
  // nullopt when the survey has no such question answered in confidence.
  std::optional<ReleaseLedger> Ledger(const std::string& question_id) const;
  // At start, the ledger loaded from storage (its budget must be the question's).
  Status RestoreLedger(const std::string& question_id, ReleaseLedger ledger);
  // Releases the question's exact counts as requested (or, with
  // `at_respondents` above the question's answers, schedules the release for
  // then, reserving its epsilon): refused past the budget or without answers;
  // the noise is drawn once from `random`; the new ledger is given to `persist`
  // and served only once that succeeds (otherwise nothing changes and nothing
  // is published). Releases of one survey are made one at a time.
  ReleaseOutcome Release(const std::string& question_id, const ReleaseRequest& request,
                         std::optional<std::int64_t> at_respondents, RandomSource& random, const std::string& now,
                         const PersistLedger& persist);
  // Makes the scheduled releases whose count is reached (after each stored report, and at start).
  Status RunDueReleases(RandomSource& random, const std::string& now, const PersistLedger& persist);
  Status CancelScheduled(const std::string& question_id, const std::string& scheduled_id, const PersistLedger& persist);
  // The exact counts of a question answered in confidence (for the admin, when its definition allows it).
  std::vector<std::int64_t> ExactCounts(std::size_t question);

 private:
  std::pair<SurveyAggregate, std::int64_t> Snapshot() const;  // with its data version
  Result<nlohmann::json> Compute(const SurveyAggregate& snapshot, const QuestionLedgers& ledgers,
                                 const nlohmann::json& options, bool default_options, EstimationLimits& limits,
                                 const EstimationRequester& requester) const;

  // `kept`: the declared analysis's copy with its reports (nothing is read), or null.
  Result<nlohmann::json> ComputeAnalysis(const nlohmann::json& spec, const nlohmann::json& options,
                                         const ReportReader& read, EstimationLimits& limits,
                                         const EstimationRequester& requester,
                                         std::unique_ptr<deniable::Analysis> kept = nullptr) const;
  // A copy of the declared analysis with this spec and the respondent count
  // it holds (taken together under the lock), or null when none is declared.
  std::pair<std::unique_ptr<deniable::Analysis>, std::int64_t> DeclaredSnapshot(const nlohmann::json& spec) const;
  std::int64_t Answers(std::size_t question) const;
  // `at`: the scheduled count the release is for; its counts are those kept
  // when the question's `at`-th answer was counted (exactly the first `at`).
  Result<LedgerRelease> DrawRelease(std::size_t question, const ReleaseRequest& request, RandomSource& random,
                                    const std::string& created_at, std::optional<std::int64_t> at = std::nullopt) const;
  // kConflict when the stored ledger is not the one held here (another
  // node's release or cancel): nothing stored, and the stored one replaces it
  // here, so that a retry decides on it.
  Status StoreLedger(const std::string& question_id, ReleaseLedger ledger, const PersistLedger& persist);
  // Installs a ledger read from the store (ledgers_mutex_ not held).
  void InstallLedger(const std::string& question_id, ReleaseLedger ledger);
  // The counts a scheduled release will need, kept as the report that reaches
  // its count is added (the writer counts a whole batch before due releases
  // run, so the counts at release time may already include later answers).
  void TrackDuePoints(const std::string& question_id, const ReleaseLedger& ledger);  // takes mutex_
  void KeepCountsAtDuePoints();  // mutex_ held

  const Survey survey_;  // as created: the structure (ids, kinds) never changes
  struct Wording {
    Survey survey;
    nlohmann::json definition;
  };
  mutable std::mutex wording_mutex_;  // guards the three below
  std::vector<std::unique_ptr<const Wording>> wordings_;  // every wording served; the current one last
  nlohmann::json corrections_ = nlohmann::json::array();
  std::uint64_t wording_generation_ = 0;
  bool stateful_ = false;  // a question with a public state (a model's rounds): admission depends on what was counted
  AggregateStore* shared_store_ = nullptr;
  std::optional<oprf::KeyPair> token_key_;
  mutable std::mutex status_mutex_;
  SurveyStatus status_;
  std::uint64_t status_generation_ = 0;  // guarded by status_mutex_
  mutable std::mutex mutex_;
  SurveyAggregate aggregate_;
  std::int64_t data_version_ = 0;  // guarded by mutex_: the stored version aggregate_ is
  // Guarded by mutex_: this node's shard as last committed (its stored
  // version), or nullopt; and as extended by the commit under way.
  std::optional<std::pair<std::int64_t, SurveyAggregate>> own_shard_;
  std::optional<std::pair<std::int64_t, SurveyAggregate>> pending_shard_;
  // Guarded by mutex_: when the last blob was given (ExtendShard). One node
  // writes its shard at most once a second: a row written with every commit
  // cost the demo's ingestion 6-13% more CPU per report (its pages in the
  // log and the checkpoints), and a 4096-option question's blob doubled a
  // 16-report commit's CPU time (bench/server/ingest_cpu.sh, shard_commit_bench).
  std::chrono::steady_clock::time_point last_blob_written_;
  std::chrono::milliseconds lazy_blob_interval_{1000};  // set before the entry is shared
  // Guarded by mutex_: reports added to the declared analyses (this node's,
  // and a replay's at start); a declared copy is used only when it has every
  // report the aggregate counts, otherwise the reports are read.
  std::int64_t declared_respondents_ = 0;
  // Guarded by mutex_: the survey's declared analyses (Survey::analyses), each
  // with every report added so far, by its spec.
  std::vector<std::pair<nlohmann::json, std::unique_ptr<deniable::Analysis>>> declared_;
  // Guarded by mutex_: per question answered in confidence, the counts its
  // scheduled releases are due at, and the exact counts kept at those points.
  std::map<std::size_t, std::set<std::int64_t>> due_points_;
  std::map<std::pair<std::size_t, std::int64_t>, std::vector<std::int64_t>> counts_at_;
  ResultsCache results_cache_;
  std::function<void()> reports_counted_;  // set before the entry is shared
  // PublicStates' document for a data version (guarded by mutex_).
  mutable std::optional<std::pair<std::int64_t, nlohmann::json>> state_cache_;
  std::mutex release_mutex_;          // one release at a time (check the budget, draw, store, publish)
  mutable std::mutex ledgers_mutex_;  // guards ledgers_ and ledgers_generation_
  QuestionLedgers ledgers_;
  std::uint64_t ledgers_generation_ = 0;  // part of the results cache key: a release changes the document
};

// Whether every analysis the survey declares fits its questions (core
// ParseAnalysis); the error names the analysis ("analyses[1]: ...").
Status CheckDeclaredAnalyses(const Survey& survey);

class SurveyRegistry {
 public:
  explicit SurveyRegistry(std::size_t results_cache_bytes = CacheMemory::kDefaultBudget,
                          ResultsWarmer::Timing warming = {});
  ~SurveyRegistry();
  std::shared_ptr<SurveyEntry> Find(const std::string& id) const;
  // false when a survey with the same id is already registered, or was
  // removed (deleted: ids are never reused, so a sync that read the store
  // before this node deleted it cannot bring it back).
  bool Add(std::shared_ptr<SurveyEntry> entry);
  // A deleted survey.
  void Remove(const std::string& id);
  // Every survey, ordered by id.
  std::vector<std::shared_ptr<SurveyEntry>> All() const;
  // Several nodes on one store: every entry added checks its stored version
  // before serving (SurveyEntry::CheckVersionsIn). Set before any Add.
  void CheckVersionsIn(AggregateStore* store) { shared_store_ = store; }
  // Shared by every survey's results estimation.
  EstimationLimits& estimation_limits() { return estimation_limits_; }
  const CacheMemory& cache_memory() const { return *cache_memory_; }
  // Default documents computed in the background so far (results_warmer.h).
  std::uint64_t results_warmed() const { return warmer_->warmed(); }

 private:
  mutable std::shared_mutex mutex_;
  EstimationLimits estimation_limits_;
  // Shared with every entry's cache, which may outlive the registry (a handler still holding its entry).
  std::shared_ptr<CacheMemory> cache_memory_;
  std::map<std::string, std::shared_ptr<SurveyEntry>> entries_;
  std::set<std::string> removed_;
  AggregateStore* shared_store_ = nullptr;
  // Shared with the entries' hooks, which may outlive the registry; stopped
  // by its destructor, before the limits it computes with are gone.
  std::shared_ptr<ResultsWarmer> warmer_;
};

}  // namespace deniable::server
