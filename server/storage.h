// Durable storage in one SQLite file (DATA_DIR/deniable.sqlite3), WAL mode with
// synchronous=FULL: a committed transaction survives a crash or power loss.
//
// Tables:
//   surveys(id PRIMARY KEY, version, definition, created_at)  canonical JSON
//   reports(rowid, survey_id, body)                            validated reports
//   invitations(survey_id, code_hash, used)                    SHA-256 of codes
// By design nothing links a report to a respondent: reports have no
// timestamp, and a used invitation is only flagged "used", with no report id
// and no time of use. Thread-safe: one connection behind one mutex.
#pragma once

#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "core/result.h"
#include "server/sqlite_db.h"

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

enum class RecordOutcome { kStored, kInvitationRejected };

class Storage {
 public:
  // Opens or creates the database and its schema.
  static Result<std::unique_ptr<Storage>> Open(const std::string& path);

  Result<std::vector<StoredSurvey>> LoadSurveys();
  // Calls visit(body) for every stored report of the survey, in insertion order.
  Status ForEachReport(const std::string& survey_id, const std::function<void(const std::string&)>& visit);

  // false (and nothing written) when a survey with this id exists.
  Result<bool> InsertSurvey(const std::string& id, int version, const std::string& definition);
  Status InsertInvitations(const std::string& survey_id, const std::vector<std::string>& code_hashes);

  // Group commit: stores the records in ONE transaction (one fsync). A record
  // whose invitation code is unknown or already used is rejected and nothing
  // of it is stored; the code of an accepted record is marked used in the same
  // transaction as its insert. On error nothing at all is stored.
  Result<std::vector<RecordOutcome>> CommitReports(const std::vector<const ReportRecord*>& records);

 private:
  explicit Storage(SqliteDatabase db) : db_(std::move(db)) {}
  Status PrepareStatements();
  Status InTransaction(const std::function<Status()>& work);
  Result<RecordOutcome> StoreRecord(const ReportRecord& record);

  std::mutex mutex_;
  SqliteDatabase db_;
  SqliteStatement insert_report_;
  SqliteStatement use_invitation_;
  SqliteStatement insert_invitation_;
  SqliteStatement insert_survey_;
};

}  // namespace deniable::server
