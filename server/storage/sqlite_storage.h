// The Storage of one server node: one SQLite file (DATA_DIR/deniable.sqlite3)
// in WAL mode with synchronous=FULL (a committed transaction survives a crash
// or power loss), and the admin token in its own file (DATA_DIR/admin-token).
// One connection behind one mutex: the mutex is the store's lock, so each
// operation's invariant holds by running under it (and in a transaction where
// it writes). The schema is the migrations' (sqlite_migrations.h).
//
// Tables:
//   surveys(id PRIMARY KEY, version, definition, created_at)  canonical JSON
//   survey_keys(survey_id, secret)                             invitation surveys' secret keys
//   reports(rowid, survey_id, body)                            every survey's reports
//   invitations(survey_id, code_hash, used, blinded_hash)      SHA-256 of codes and of the element each was spent for
//   spent_tokens(survey_id, token_hash)                        SHA-256 of redeemed tokens' inputs
//   release_ledgers(survey_id, question_id, ledger)            releases of questions answered in confidence
//   survey_status(survey_id, closed, closes_at)                whether a survey accepts reports
//   deleted_surveys(survey_id, deleted_at)                     ids never to be reused
//   survey_aggregates(survey_id, shard, version, blob)         each survey's aggregate (storage.h: one shard, 0)
// The answers to questions answered in confidence are in the reports' bodies,
// stored like every report; no endpoint serves a report body.
// Reports have no timestamp; their row ids follow arrival, which pairs
// nothing: an invitation report is stored with its token's hash (random, in
// a table ordered by hash), and the code was spent at issuance for a blinded
// element that no key relates to the token. Freed pages are zeroed
// (secure_delete), and deleting a survey empties the log too. The files are
// created 0600. A database file removed or replaced under the running server
// refuses writes (kUnavailable).
#pragma once

#include <sys/types.h>

#include <atomic>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "server/storage/sqlite_db.h"
#include "server/storage/storage.h"

namespace deniable::server {

class SqliteStorage final : public Storage {
 public:
  // Opens or creates the database, bringing its schema up to date; the admin
  // token is kept at `admin_token_path` ("" for DATABASE_PATH's directory's admin-token).
  static Result<std::unique_ptr<SqliteStorage>> Open(const std::string& path, std::string admin_token_path = "");

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
  Result<std::int64_t> AggregateVersion(const std::string& survey_id) override;
  Result<StoredAggregate> LoadAggregate(const std::string& survey_id) override;
  Status ForEachReportAfter(const std::string& survey_id, std::int64_t through, const BodyVisitor& visit) override;
  Status ForEachReportOf(const std::string& survey_id, const BodyVisitor& visit,
                         const std::function<bool()>& cancelled = nullptr, int chunk = 2000) override;
  Status UpdateLedger(const std::string& survey_id, const std::string& question_id, const LedgerUpdate& update) override;
  Result<std::string> LoadOrCreateAdminToken(const std::function<std::string()>& fresh,
                                             const std::function<Status(const std::string&)>& valid) override;
  // This connection's catalog changes (low 32 bits; one node per file, and
  // the mutex is the store's lock, so counting them after each COMMIT under
  // it is the same as counting them in the transaction) and, above them,
  // PRAGMA data_version, which moves when ANOTHER connection to the file
  // commits (tests open two "nodes" on one file): no schema change needed.
  Result<std::uint64_t> CatalogVersion() override;
  void WaitForChange(std::uint64_t seen, std::chrono::milliseconds timeout) override;
  void InterruptWait() override;

 private:
  struct FileIdentity {
    dev_t device = 0;
    ino_t inode = 0;
  };
  SqliteStorage(SqliteDatabase db, std::string path, FileIdentity identity, std::string admin_token_path)
      : db_(std::move(db)), path_(std::move(path)), identity_(identity), admin_token_path_(std::move(admin_token_path)) {}
  // Whether the path still names the file the server opened. A database
  // removed (or replaced) under a running server keeps taking writes into its
  // unlinked inode, which vanish at the next start: such writes are refused.
  Status FileIntactLocked() const;
  // Whether the survey is in deleted_surveys; the caller holds mutex_.
  Result<bool> WasDeletedLocked(const std::string& survey_id);
  // Whether the survey takes no reports now (closed, or its closing time passed); the caller holds mutex_.
  Result<bool> IsClosedLocked(const std::string& survey_id);
  Status InsertSurveyKeyLocked(const std::string& survey_id, const std::string& secret_key);
  Result<bool> InvitationUnusedLocked(const std::string& survey_id, const std::string& code_hash);
  Result<std::vector<StoredSurvey>> LoadSurveysLocked();
  Result<std::vector<StoredStatus>> LoadStatusesLocked();
  Result<std::vector<StoredLedger>> LoadLedgersLocked();
  Result<std::vector<StoredCorrection>> LoadCorrectionsLocked();
  Result<std::optional<std::string>> StoredLedgerLocked(const std::string& survey_id, const std::string& question_id);
  Status PrepareStatements();
  Status InTransaction(const std::function<Status()>& work);
  // The outcomes decided before anything is written: tokens, admission, deletion and status.
  Result<std::vector<RecordOutcome>> DecideLocked(const std::vector<const ReportRecord*>& records,
                                                  const BatchAdmission& admit, AggregateHooks* aggregates);
  Result<std::int64_t> AggregateVersionLocked(const std::string& survey_id);
  Result<StoredAggregate> LoadAggregateLocked(const std::string& survey_id);
  // Extends this node's shard of each survey the batch stores reports of (in the commit's transaction).
  Status ExtendShardsLocked(const std::vector<const ReportRecord*>& records, const std::vector<RecordOutcome>& outcomes,
                            AggregateHooks& aggregates);
  Result<bool> TokenSpentLocked(const std::string& survey_id, const std::string& token_hash);
  // Stores the report, and spends its token; false (nothing stored) when the token was spent already.
  Result<bool> StoreRecord(const ReportRecord& record);
  // Copies the write-ahead log into the database and empties it.
  Status TruncateLog();
  // After a committed catalog change; the caller holds mutex_.
  void CatalogChangedLocked();

  std::mutex mutex_;
  SqliteDatabase db_;
  const std::string path_;
  const FileIdentity identity_;
  const std::string admin_token_path_;
  SqliteStatement insert_report_;
  SqliteStatement spend_token_;
  SqliteStatement insert_invitation_;
  SqliteStatement insert_survey_;
  SqliteStatement save_ledger_;
  std::mutex wait_mutex_;  // guards catalog_changes_ and interrupted_ for the waiters
  std::condition_variable catalog_changed_;
  std::uint64_t catalog_changes_ = 0;
  bool interrupted_ = false;
  SqliteStatement read_shard_;
  SqliteStatement save_shard_;
  SqliteStatement aggregate_version_;
  SqliteStatement last_report_;
};

}  // namespace deniable::server
