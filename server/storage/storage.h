// The server's durable state behind one interface. Each operation carries an
// invariant of the product (one token per invitation code and one report per
// token, a model's round takes only what it admits, no report for a deleted
// or closed survey, a deleted id is never reused, a release ledger never
// overspends), so that an implementation keeps it whatever the number of
// server nodes: in one transaction of its store, not by the caller reading
// then writing. No SQL crosses this interface. SqliteStorage (one file, one
// node) is the first implementation; a store shared by several nodes (issue
// 31: PostgreSQL) implements the same operations with the same guarantees,
// each stated below as "another node sees".
//
// What is stored, whatever the store:
//   surveys       id, version, canonical JSON definition, creation time
//   survey keys   each invitation survey's secret key (blind tokens, core/oprf/voprf.h)
//   reports       every survey's reports (their bodies, compact JSON)
//   invitations   SHA-256 of each code, whether it is used, and SHA-256 of the
//                 blinded element it was exchanged for (no time, no report)
//   spent tokens  SHA-256 of each redeemed token's input, per survey
//   ledgers       the release ledger of each question answered in confidence
//   statuses      whether a survey accepts reports (closed, closing time)
//   corrections   each correction of a running survey's wording: its time and
//                 changes (the definition stored is the corrected one)
//   deleted ids   never reused
//   admin token   the secret of the admin endpoints
// By design nothing links a report to a respondent. An invitation code is
// spent when its token is issued (SpendInvitationForToken) and never reaches
// the report: a report is stored with its token's hash, in one commit, and
// the token's input was blinded when the code was spent, so neither the store
// nor its log pairs a code (or the blinded element spent with it) with a
// token, even with the survey's key. No report carries a time. Every
// operation is thread-safe. Errors carry their kind: kUnavailable (the store
// cannot be written now: e.g. its file was replaced under the server),
// kNotFound (the survey was deleted), kConflict (the state changed under the
// caller), kCancelled (the caller gave up), kInternal (the store failed).
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/common/result.h"

namespace deniable::server {

struct StoredSurvey {
  std::string id;
  std::string definition;  // canonical JSON text
};

struct ReportRecord {
  std::string survey_id;
  std::string body;  // the validated report, compact JSON
  // Invitation surveys: SHA-256 (hex) of the redeemed token's input, spent with the report.
  std::optional<std::string> token_hash;
};

struct StoredLedger {
  std::string survey_id;
  std::string question_id;
  std::string ledger;  // core ReleaseLedger::ToJson, compact
};

struct StoredStatus {
  std::string survey_id;
  bool closed = false;
  std::string closes_at;  // "" or an ISO 8601 UTC time (server/base/utc_time.h)
};

// A correction of a running survey's wording (core/survey/text_correction.h).
struct StoredCorrection {
  std::string survey_id;
  std::string made_at;  // ISO 8601 UTC, by the store's clock
  std::string changes;  // compact JSON: core WordingChangesToJson
};

// Everything a server needs at start but the reports (ForEachReport).
struct StoredState {
  std::vector<StoredSurvey> surveys;  // by id
  std::vector<StoredStatus> statuses;
  std::vector<StoredLedger> ledgers;  // by survey, then question
  std::vector<StoredCorrection> corrections;  // by survey, then in the order made
};

struct InvitationCounts {
  std::int64_t total = 0;
  std::int64_t used = 0;
};

// What became of one report of a committed batch (CommitReports), in the
// order the store decides them:
//   kTokenUsed           its token was spent already, or by an earlier report
//                        of the batch: nothing stored
//   kNotAdmitted         the batch's admission refused it (a model's round
//                        already full): nothing stored
//   kSurveyDeleted       its survey was deleted before the commit: nothing stored
//   kSurveyClosed        its survey was closed (or its closing time passed)
//                        before the commit: nothing stored
//   kUnavailable         the store cannot be written now: nothing stored
//   kFailed              its part of the batch failed: nothing of it stored
enum class RecordOutcome {
  kStored,
  kTokenUsed,
  kNotAdmitted,
  kSurveyDeleted,
  kSurveyClosed,
  kUnavailable,
  kFailed
};

enum class CreateOutcome { kCreated, kExists, kDeleted };

// What became of an invitation code exchanged for a token
// (SpendInvitationForToken):
//   kSpent          the code was unused: it is spent now, for this blinded element
//   kRepeated       the code was spent for this same blinded element (a retry
//                   after a lost answer): evaluate it again
//   kRejected       unknown, or spent for another element, or used by a report
//                   before tokens: nothing changed
//   kSurveyClosed   the survey takes no reports now: nothing spent
//   kSurveyDeleted  nothing spent
enum class IssueOutcome { kSpent, kRepeated, kRejected, kSurveyClosed, kSurveyDeleted };

// Which of a batch's reports may be counted, decided against the counted
// state at commit time: given the indices (ascending, into the batch) of the
// reports still in play, one verdict per index, in that order. It runs under
// the store's lock (one node: nothing else commits meanwhile; several nodes:
// inside the transaction that holds the surveys' aggregate rows), so two
// reports admitted apart cannot both take a model round's last place.
using BatchAdmission = std::function<std::vector<bool>(const std::vector<std::size_t>& candidates)>;

// A release ledger's read-modify-write: given the stored ledger (nullopt when
// none is stored), the ledger to store, or an error to store nothing (e.g.
// kConflict: it is not the ledger the caller's release was based on).
using LedgerUpdate = std::function<Result<std::string>(const std::optional<std::string>& stored)>;

using ReportVisitor = std::function<void(const std::string& survey_id, const std::string& body)>;
using BodyVisitor = std::function<void(const std::string& body)>;

// --- aggregates shared by nodes (issue 31) -------------------------------
// Each survey's aggregate is kept in the store, in shards: rows
// (survey, shard, version, blob), each blob a core SerializeSurveyAggregate
// (core/survey/aggregate_format.h) of the reports that the commits writing
// that shard stored. A node writes one shard, chosen when it starts
// (its store's choice: SQLite, one node, always 0; a shared store, a
// random ord in [0, 8) per node, so rows stay few, at most 8 per survey, and
// two nodes rarely contend for one row; when they do, the row lock orders
// them, as Janus's batch_aggregations ord does per commit). The shard's row
// is read, extended and written in the SAME transaction as the reports
// (row-locked: SQLite's write lock, or SELECT ... FOR UPDATE), so a failed
// commit leaves it unchanged and every stored report is in exactly one
// shard. A commit that stores reports of a survey adds 1 to its shard's
// version: the survey's data version (the sum of its shards' versions)
// grows by exactly one per such commit, on any node, and never repeats (one
// node on a store not shared: only per commit that wrote the blob), so a
// node that holds the merged aggregate of version v knows it is current
// when the store says v. The store knows no kinds: it moves blobs.
struct AggregateShard {
  int shard = 0;
  std::int64_t version = 0;  // commits that extended this shard
  std::string blob;
  // -1: the blob counts every report of its commits (a store shared by
  // nodes always writes it). Otherwise the blob may lag (an Extend that
  // returned "", below): it counts the survey's reports up to this store id,
  // and ForEachReportAfter gives the rest.
  std::int64_t through = -1;
};

struct StoredAggregate {
  std::int64_t version = 0;            // the survey's data version: the sum of its shards' (0: no report)
  std::vector<AggregateShard> shards;  // by shard; merged, they are the survey's aggregate
};

// What CommitReports asks its caller about aggregates, called inside the
// commit's transaction, in this order per survey of the batch that has
// reports in play: Refresh (only when NeedsGlobalState), then the batch's
// BatchAdmission, then Extend (only for a survey the commit stores reports
// of). An error from Extend fails the whole commit (nothing stored).
class AggregateHooks {
 public:
  virtual ~AggregateHooks() = default;
  // Whether admission (a model's round) or a scheduled release's due point
  // needs the survey's global counted state at commit time: the commit then
  // locks all the survey's shard rows before admission and calls Refresh.
  virtual bool NeedsGlobalState(const std::string& survey_id) const = 0;
  // The survey's data version under those locks; `load` reads its shards in
  // the same transaction (called only when the caller's state is older).
  virtual Status Refresh(const std::string& survey_id, std::int64_t version,
                         const std::function<Result<StoredAggregate>()>& load) = 0;
  // The new blob of this node's shard: `current` (nullopt: the shard has no
  // row yet) with the batch's records `stored` (indices into the batch, in
  // order) added. `survey_version`: the survey's data version read in this
  // transaction before this commit; after it, it is survey_version + 1.
  // "" (never a blob) asks a store that is not SharedByNodes to write nothing
  // of the shard this time (neither blob nor version): one node holds the
  // exact aggregate and its data version in memory, and a start-up reads the
  // reports after the blob's `through`; the shard's row is then written at
  // most once a second, not with every commit's few reports.
  virtual Result<std::string> Extend(const std::string& survey_id, const std::optional<AggregateShard>& current,
                                     std::int64_t survey_version, const std::vector<std::size_t>& stored) = 0;
};

// The aggregate operations of Storage (below).
class AggregateStore {
 public:
  virtual ~AggregateStore() = default;
  // Whether other nodes commit to this store too (then a node checks the
  // stored version before serving); SQLite: false, one node.
  virtual bool SharedByNodes() const { return false; }
  // The survey's data version, without reading a blob (0: none stored).
  virtual Result<std::int64_t> AggregateVersion(const std::string& survey_id) = 0;
  // Every shard of the survey with their version sum, read in one snapshot.
  virtual Result<StoredAggregate> LoadAggregate(const std::string& survey_id) = 0;
  // The survey's reports stored after its shard's `through`, in order (only
  // a store whose blobs may lag has any to give).
  virtual Status ForEachReportAfter(const std::string& survey_id, std::int64_t through, const BodyVisitor& visit) {
    (void)survey_id, (void)through, (void)visit;
    return MakeError("this store writes every shard's blob at every commit", ErrorCode::kInternal);
  }
};

class Storage : public AggregateStore {
 public:
  virtual ~Storage() = default;

  // --- start-up
  // The surveys, their statuses and their ledgers, read together (one
  // snapshot: no survey without its ledgers).
  virtual Result<StoredState> LoadState() = 0;
  // Calls visit for every stored report, in insertion order.
  virtual Status ForEachReport(const ReportVisitor& visit) = 0;

  // --- surveys
  // Stores a new survey, durably, unless its id is taken (kExists) or was
  // deleted (kDeleted: ids are never reused), decided in the same transaction
  // as the insert: two nodes creating one id, one gets kCreated.
  // An invitation survey's secret key (its bytes) is stored with it, in the
  // same transaction: no survey without its key.
  virtual Result<CreateOutcome> CreateSurvey(const std::string& id, int version, const std::string& definition,
                                             const std::optional<std::string>& secret_key = std::nullopt) = 0;
  // The survey's stored secret key; when none is stored (a survey created
  // before keys), stores fresh() and returns it (created once: two nodes
  // starting together get the same key). kNotFound when the survey was deleted.
  virtual Result<std::string> LoadOrCreateSurveyKey(const std::string& survey_id,
                                                    const std::function<std::string()>& fresh) = 0;
  // Replaces the survey's status, durably. Once it returns, no batch
  // committed after it (on any node) stores a report the status refuses.
  virtual Status SetStatus(const StoredStatus& status) = 0;
  // Deletes the survey with its reports, key, invitations, spent tokens, ledgers and status in
  // one transaction, and keeps its id so that it is never reused; returns how
  // many reports were deleted. Once it returns, no batch stores a report of
  // it. kNotFound when it was deleted already (another request was first).
  // Erases what the store can: SQLite zeroes the freed pages and empties its log.
  virtual Result<std::int64_t> DeleteSurvey(const std::string& survey_id) = 0;
  virtual Result<bool> WasDeleted(const std::string& survey_id) = 0;
  // Replaces the survey's stored definition by `corrected` (the caller checked
  // that only its wording differs: core CompareWording) and records the
  // correction's `changes` with the store's time, in one transaction, and only
  // while the stored definition is still `expected`: of two corrections
  // decided on the same definition (one node or several), one is stored and
  // the other gets kConflict with nothing stored. kNotFound when the survey
  // was deleted. Returns the record stored.
  virtual Result<StoredCorrection> CorrectSurvey(const std::string& survey_id, const std::string& expected,
                                                 const std::string& corrected, const std::string& changes) = 0;

  // --- invitation codes (their SHA-256 hashes)
  // All or none, in one transaction.
  virtual Status AddInvitations(const std::string& survey_id, const std::vector<std::string>& code_hashes) = 0;
  // Whether the code is known and not used; spends nothing (an answer that a
  // later issuance may contradict, if another spends it first).
  virtual Result<bool> InvitationUnused(const std::string& survey_id, const std::string& code_hash) = 0;
  // How many codes the survey has, and how many are used (never which).
  virtual Result<InvitationCounts> CountInvitations(const std::string& survey_id) = 0;
  // Exchanges a code for a token: decides and records IssueOutcome in one
  // transaction, durably (committed before it returns, so an evaluation is
  // never answered for a code that a crash would give back). Exactly one
  // blinded element is ever accepted per code, whatever races it (another
  // node sees the code spent); the same element is accepted again.
  virtual Result<IssueOutcome> SpendInvitationForToken(const std::string& survey_id, const std::string& code_hash,
                                                       const std::string& blinded_hash) = 0;

  // --- reports
  // Group commit of a batch, with an outcome per record (RecordOutcome; the
  // order in which the store decides: tokens, then admission, then the
  // survey's deletion and status). A record is stored only if its token (when
  // it has one) was not spent and is spent by this commit, in the same
  // transaction as the report (exactly one report per token, whatever races
  // it, also twice in one batch), `admit` admitted it, and its survey is
  // neither deleted nor closed at commit time. kStored means durable: it
  // survives a crash, and every node's later reads see it. An error result:
  // nothing of the batch was stored.
  // With `aggregates`, the commit also extends this node's shard of each
  // survey it stores reports of (AggregateHooks), in the same transaction.
  virtual Result<std::vector<RecordOutcome>> CommitReports(const std::vector<const ReportRecord*>& records,
                                                           const BatchAdmission& admit,
                                                           AggregateHooks* aggregates = nullptr) = 0;
  // Calls visit(body) for every stored report of one survey, `chunk` at a
  // time, letting commits through between chunks (a report committed during
  // the read may or may not be visited). Stops with kCancelled when
  // `cancelled` says so (checked between chunks).
  virtual Status ForEachReportOf(const std::string& survey_id, const BodyVisitor& visit,
                                 const std::function<bool()>& cancelled = nullptr, int chunk = 2000) = 0;

  // --- release ledgers
  // Reads the question's ledger, calls `update` with it and stores what it
  // returns, durably, all under the store's lock (one transaction): two
  // releases, on one node or several, cannot both spend from the same
  // previous ledger. kNotFound when the survey was deleted; update's error
  // is returned as it is, nothing stored.
  virtual Status UpdateLedger(const std::string& survey_id, const std::string& question_id,
                              const LedgerUpdate& update) = 0;

  // --- the admin token
  // The stored token, after `valid` accepted it (its error names where it is
  // kept); when none is stored, stores fresh() (created once: two nodes
  // starting together get the same token).
  virtual Result<std::string> LoadOrCreateAdminToken(const std::function<std::string()>& fresh,
                                                     const std::function<Status(const std::string&)>& valid) = 0;

  // --- catalog sync (issue 31): what one node changed, seen by the others
  // A number that moves whenever a survey is created, its status set, its
  // wording corrected, it is deleted or a ledger is stored (CreateSurvey when
  // kCreated, SetStatus, CorrectSurvey, DeleteSurvey, UpdateLedger when it stored), moved in the SAME transaction
  // as the change, so a node that read version v and then LoadState() has
  // seen every change up to v. Only "differs from what I saw" has a meaning
  // (a restart may start it elsewhere). Cheap: nodes poll it (<= 1 s).
  virtual Result<std::uint64_t> CatalogVersion() = 0;
  // Returns once CatalogVersion() may differ from `seen`, or after `timeout`,
  // or when InterruptWait() is called: a hint for speed (PostgreSQL: LISTEN),
  // never the guarantee (the caller reads CatalogVersion() again).
  virtual void WaitForChange(std::uint64_t seen, std::chrono::milliseconds timeout) = 0;
  // Wakes every WaitForChange, now and later: the node is stopping its poller.
  virtual void InterruptWait() = 0;
};

}  // namespace deniable::server
