// The Storage of several server nodes sharing one PostgreSQL database
// (`deniable serve --database postgresql://...`). Every operation is one
// transaction (pg_transaction.h: retried on serialization failure, deadlock
// or a connection lost before COMMIT; an unknown COMMIT is an error), and
// each invariant of storage.h is kept by PostgreSQL's row locks and unique
// keys, not by this process's memory, so it holds whatever the number of nodes:
//   - a survey's deletion and closing against report commits: CommitReports
//     locks its batch's surveys rows FOR SHARE before it reads their status;
//     DeleteSurvey and SetStatus lock the row FOR UPDATE. They serialise, and
//     the commit reads the status after the lock (READ COMMITTED: a fresh
//     snapshot per statement), comparing closes_at with the database's now();
//   - one report per token: INSERT INTO spent_tokens ... ON CONFLICT DO
//     NOTHING, its row count deciding, in the report's transaction;
//   - one blinded element per code: the invitation row locked FOR UPDATE,
//     then UPDATE ... WHERE used = 0;
//   - a deleted id never reused: CreateSurvey and DeleteSurvey take the id's
//     advisory lock (pg_advisory_xact_lock), so a creation checks
//     deleted_surveys after any deletion of that id committed;
//   - a ledger never overspent: UpdateLedger holds its (survey, question)
//     advisory lock while it reads, updates and writes;
//   - the admin token and survey keys created once: INSERT ... ON CONFLICT
//     DO NOTHING, then SELECT what was stored;
//   - the catalog version: one row, moved by each catalog change in its own
//     transaction (its row lock orders them), with NOTIFY deniable_catalog,
//     which PostgreSQL delivers only if that transaction commits; a node
//     LISTENs on a connection of its own (PgListener), and polls the row;
//   - aggregates (storage.h): a node extends the shard it drew at start
//     (random, in [0, 8)), its row locked FOR UPDATE, in the reports'
//     transaction; a commit that needs the survey's global state (a model's
//     round) first takes the survey's aggregate advisory lock, which every
//     such commit on every node takes, then reads the shards: two commits
//     cannot both admit against the same state, even before any shard row exists.
// Deletion erases the rows, but PostgreSQL has no secure delete: the dead
// tuples stay in the table's pages until VACUUM reuses them, and the rows
// stay in the WAL (and its archive), in base backups and on standbys until
// those are recycled. Nothing of it is kept in the data directory.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "server/storage/pg_listener.h"
#include "server/storage/pg_migrations.h"
#include "server/storage/pg_pool.h"
#include "server/storage/storage.h"

namespace deniable::server {

class PostgresStorage final : public Storage {
 public:
  // Connects (a pool of `connections`), brings the schema up to date, or
  // refuses: kInvalidArgument for a bad URL, kUnavailable for a server that
  // cannot be reached, kConflict for a newer schema.
  static Result<std::unique_ptr<PostgresStorage>> Open(const std::string& url, int connections = 8,
                                                       const std::vector<PgMigration>& migrations = PgMigrations());

  Result<StoredState> LoadState() override;
  Status ForEachReport(const ReportVisitor& visit) override;
  Result<CreateOutcome> CreateSurvey(const std::string& id, int version, const std::string& definition,
                                     const std::optional<std::string>& secret_key = std::nullopt) override;
  Result<std::string> LoadOrCreateSurveyKey(const std::string& survey_id,
                                            const std::function<std::string()>& fresh) override;
  Status SetStatus(const StoredStatus& status) override;
  Result<std::int64_t> DeleteSurvey(const std::string& survey_id) override;
  Result<bool> WasDeleted(const std::string& survey_id) override;
  Result<StoredCorrection> CorrectSurvey(const std::string& survey_id, const std::string& expected,
                                         const std::string& corrected, const std::string& changes) override;
  Status AddInvitations(const std::string& survey_id, const std::vector<std::string>& code_hashes) override;
  Result<bool> InvitationUnused(const std::string& survey_id, const std::string& code_hash) override;
  Result<InvitationCounts> CountInvitations(const std::string& survey_id) override;
  Result<IssueOutcome> SpendInvitationForToken(const std::string& survey_id, const std::string& code_hash,
                                               const std::string& blinded_hash) override;
  Result<std::vector<RecordOutcome>> CommitReports(const std::vector<const ReportRecord*>& records,
                                                   const BatchAdmission& admit,
                                                   AggregateHooks* aggregates = nullptr) override;
  bool SharedByNodes() const override { return true; }
  Result<std::int64_t> AggregateVersion(const std::string& survey_id) override;
  Result<StoredAggregate> LoadAggregate(const std::string& survey_id) override;
  // The shard this node extends.
  int shard() const { return shard_; }
  Status ForEachReportOf(const std::string& survey_id, const BodyVisitor& visit,
                         const std::function<bool()>& cancelled = nullptr, int chunk = 2000) override;
  Status UpdateLedger(const std::string& survey_id, const std::string& question_id, const LedgerUpdate& update) override;
  Result<std::string> LoadOrCreateAdminToken(const std::function<std::string()>& fresh,
                                             const std::function<Status(const std::string&)>& valid) override;
  Result<std::uint64_t> CatalogVersion() override;
  void WaitForChange(std::uint64_t seen, std::chrono::milliseconds timeout) override;
  void InterruptWait() override;

 private:
  PostgresStorage(std::unique_ptr<PgPool> pool, int shard)
      : pool_(std::move(pool)), shard_(shard), listener_(pool_->url(), "deniable_catalog") {}
  // The outcomes decided before anything is written: tokens, admission,
  // deletion and status (inside the commit's transaction, after its locks).
  Result<std::vector<RecordOutcome>> Decide(PgConnection& db, const std::vector<const ReportRecord*>& records,
                                            const BatchAdmission& admit, AggregateHooks* aggregates);
  // Extends this node's shard of each survey the batch stored reports of.
  Status ExtendShards(PgConnection& db, const std::vector<const ReportRecord*>& records,
                      const std::vector<RecordOutcome>& outcomes, AggregateHooks& aggregates);
  // Spends the tokens and inserts the reports of the records still kStored.
  Status Store(PgConnection& db, const std::vector<const ReportRecord*>& records, std::vector<RecordOutcome>& outcomes);

  std::unique_ptr<PgPool> pool_;
  const int shard_;
  PgListener listener_;
};

// How many shards a survey's aggregate has at most (a node draws one of them).
inline constexpr int kPgAggregateShards = 8;

}  // namespace deniable::server
