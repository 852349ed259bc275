// The Storage of one server node: one SQLite file (DATA_DIR/deniable.sqlite3)
// in WAL mode with synchronous=FULL (a committed transaction survives a crash
// or power loss), and the admin token in its own file (DATA_DIR/admin-token).
// One connection behind one mutex: the mutex is the store's lock, so each
// operation's invariant holds by running under it (and in a transaction where
// it writes). The schema is the migrations' (sqlite_migrations.h).
//
// Tables:
//   surveys(id PRIMARY KEY, version, definition, created_at)  canonical JSON
//   reports(rowid, survey_id, body)                            open surveys' reports
//   sealed_reports(id, survey_id, body)                        invitation surveys' reports, random ids
//   invitations(survey_id, code_hash, used)                    SHA-256 of codes
//   release_ledgers(survey_id, question_id, ledger)            releases of questions answered in confidence
//   survey_status(survey_id, closed, closes_at)                whether a survey accepts reports
//   deleted_surveys(survey_id, deleted_at)                     ids never to be reused
// The answers to questions answered in confidence are in the reports' bodies,
// stored like every report; no endpoint serves a report body.
// Reports have no timestamp, and a used invitation is only flagged "used",
// with no report id and no time of use; invitation reports are stored at
// random ids, and a code is spent and its report stored in separate commits
// with the write-ahead log emptied between them (CommitInvitedRecords), so
// neither the log nor the database pairs them. Freed pages are zeroed
// (secure_delete). The files are created 0600. A database file removed or
// replaced under the running server refuses writes (kUnavailable).
#pragma once

#include <sys/types.h>

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
  Result<CreateOutcome> CreateSurvey(const std::string& id, int version, const std::string& definition) override;
  Status SetStatus(const StoredStatus& status) override;
  Result<std::int64_t> DeleteSurvey(const std::string& survey_id) override;
  Result<bool> WasDeleted(const std::string& survey_id) override;
  Status AddInvitations(const std::string& survey_id, const std::vector<std::string>& code_hashes) override;
  Result<bool> InvitationUnused(const std::string& survey_id, const std::string& code_hash) override;
  Result<InvitationCounts> CountInvitations(const std::string& survey_id) override;
  Result<std::vector<RecordOutcome>> CommitReports(const std::vector<const ReportRecord*>& records,
                                                   const BatchAdmission& admit) override;
  Status ForEachReportOf(const std::string& survey_id, const BodyVisitor& visit,
                         const std::function<bool()>& cancelled = nullptr, int chunk = 2000) override;
  Status UpdateLedger(const std::string& survey_id, const std::string& question_id, const LedgerUpdate& update) override;
  Result<std::string> LoadOrCreateAdminToken(const std::function<std::string()>& fresh,
                                             const std::function<Status(const std::string&)>& valid) override;

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
  Result<bool> InvitationUnusedLocked(const std::string& survey_id, const std::string& code_hash);
  Result<std::vector<StoredSurvey>> LoadSurveysLocked();
  Result<std::vector<StoredStatus>> LoadStatusesLocked();
  Result<std::vector<StoredLedger>> LoadLedgersLocked();
  Result<std::optional<std::string>> StoredLedgerLocked(const std::string& survey_id, const std::string& question_id);
  Status PrepareStatements();
  Status InTransaction(const std::function<Status()>& work);
  // The outcomes decided before anything is written: codes, admission, deletion and status.
  Result<std::vector<RecordOutcome>> DecideLocked(const std::vector<const ReportRecord*>& records,
                                                  const BatchAdmission& admit);
  Status StoreOpenRecord(const ReportRecord& record);
  Status StoreSealedRecord(const ReportRecord& record);
  // Runs the spend (or give-back) statement for the record's code; true when it changed the code.
  Result<bool> SpendInvitation(const ReportRecord& record, SqliteStatement& statement);
  Status CommitInvitedRecords(const std::vector<const ReportRecord*>& records, const std::vector<std::size_t>& invited,
                              std::vector<RecordOutcome>& outcomes);
  // Copies the write-ahead log into the database and empties it.
  Status TruncateLog();

  std::mutex mutex_;
  SqliteDatabase db_;
  const std::string path_;
  const FileIdentity identity_;
  const std::string admin_token_path_;
  SqliteStatement insert_report_;
  SqliteStatement insert_sealed_report_;
  SqliteStatement use_invitation_;
  SqliteStatement return_invitation_;
  SqliteStatement insert_invitation_;
  SqliteStatement insert_survey_;
  SqliteStatement save_ledger_;
};

}  // namespace deniable::server
