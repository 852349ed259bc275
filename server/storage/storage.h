// Durable storage in one SQLite file (DATA_DIR/deniable.sqlite3), WAL mode with
// synchronous=FULL: a committed transaction survives a crash or power loss.
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
// By design nothing links a report to a respondent: reports have no
// timestamp, and a used invitation is only flagged "used", with no report id
// and no time of use; invitation reports are stored at random ids, and a code
// is spent and its report stored in separate commits with the write-ahead log
// emptied between them (CommitInvitedRecords), so neither the log nor the
// database pairs them. The files are created 0600. Thread-safe: one
// connection behind one mutex.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "core/common/result.h"
#include "server/storage/sqlite_db.h"

namespace deniable::server {

struct StoredSurvey {
  std::string id;
  std::string definition;  // canonical JSON text
};

struct ReportRecord {
  std::string survey_id;
  std::string body;                                 // the validated report, compact JSON
  std::optional<std::string> invitation_code_hash;  // set for invitation surveys
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

// kSurveyDeleted / kSurveyClosed: the survey was deleted, or closed (its
// status, or its closing time passed), after the report was validated and
// before its batch was committed: nothing of it is stored.
// kUnavailable: the database file was removed or replaced under the running
// server (FileIntactLocked): nothing is written, since nothing written there
// would survive a restart.
enum class RecordOutcome { kStored, kInvitationRejected, kSurveyDeleted, kSurveyClosed, kUnavailable, kFailed };

class Storage {
 public:
  // Opens or creates the database and its schema.
  static Result<std::unique_ptr<Storage>> Open(const std::string& path);

  Result<std::vector<StoredSurvey>> LoadSurveys();
  Result<std::vector<StoredLedger>> LoadLedgers();
  Result<std::vector<StoredStatus>> LoadStatuses();
  Status SaveStatus(const StoredStatus& status);
  // Deletes a survey with its reports, invitations, releases and status in one
  // transaction, and keeps its id so that it is never reused. Returns how
  // many reports were deleted (a report of a batch committed after this is
  // not stored: CommitReports); nullopt when another request deleted it first.
  Result<std::optional<std::int64_t>> DeleteSurvey(const std::string& survey_id);
  Result<bool> WasDeleted(const std::string& survey_id);
  // Whether the code (its hash) is known and not used yet; spends nothing.
  Result<bool> InvitationUnused(const std::string& survey_id, const std::string& code_hash);
  // How many codes the survey has, and how many of them are used (counts only:
  // which code was used is not kept).
  struct InvitationCounts {
    std::int64_t total = 0;
    std::int64_t used = 0;
  };
  Result<InvitationCounts> CountInvitations(const std::string& survey_id);
  // Stores a question's whole ledger durably (one transaction), replacing the previous one.
  Status SaveLedger(const std::string& survey_id, const std::string& question_id, const std::string& ledger);
  // Calls visit(survey_id, body) for every stored report, in one pass over
  // the tables (open surveys' reports in insertion order).
  Status ForEachReport(const std::function<void(const std::string&, const std::string&)>& visit);

  // Calls visit(body) for every stored report of one survey (open surveys'
  // in insertion order, invitation surveys' in their random order), reading
  // `chunk` reports at a time and releasing the lock between chunks, so that
  // report intake is not held up while a long read is analysed. Stops with
  // an error when `cancelled` says so (checked between chunks).
  Status ForEachReportOf(const std::string& survey_id, const std::function<void(const std::string&)>& visit,
                         const std::function<bool()>& cancelled = nullptr, int chunk = 2000);

  // false (and nothing written) when a survey with this id exists.
  Result<bool> InsertSurvey(const std::string& id, int version, const std::string& definition);
  Status InsertInvitations(const std::string& survey_id, const std::vector<std::string>& code_hashes);

  // Group commit: stores the open surveys' records in ONE transaction (one
  // fsync), then the invitation records (see CommitInvitedRecords). A record
  // whose invitation code is unknown or already used is rejected and nothing
  // of it is stored. On error (an error result, or kFailed for a record)
  // that record is not stored.
  Result<std::vector<RecordOutcome>> CommitReports(const std::vector<const ReportRecord*>& records);

 private:
  struct FileIdentity {
    dev_t device = 0;
    ino_t inode = 0;
  };
  Storage(SqliteDatabase db, std::string path, FileIdentity identity)
      : db_(std::move(db)), path_(std::move(path)), identity_(identity) {}
  // Whether the path still names the file the server opened. A database
  // removed (or replaced) under a running server keeps taking writes into its
  // unlinked inode, which vanish at the next start: such writes are refused.
  Status FileIntactLocked() const;
  // Whether the survey is in deleted_surveys; the caller holds mutex_.
  Result<bool> WasDeletedLocked(const std::string& survey_id);
  // Whether the survey takes no reports now (closed, or its closing time passed); the caller holds mutex_.
  Result<bool> IsClosedLocked(const std::string& survey_id);
  Status PrepareStatements();
  Status InTransaction(const std::function<Status()>& work);
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
  SqliteStatement insert_report_;
  SqliteStatement insert_sealed_report_;
  SqliteStatement use_invitation_;
  SqliteStatement return_invitation_;
  SqliteStatement insert_invitation_;
  SqliteStatement insert_survey_;
  SqliteStatement save_ledger_;
};

}  // namespace deniable::server
