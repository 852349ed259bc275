#include "server/storage/sqlite_storage.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <iostream>
#include <limits>
#include <map>
#include <set>
#include <utility>

#include "server/base/utc_time.h"
#include "server/storage/sqlite_migrations.h"
#include "server/storage/token_file.h"

namespace deniable::server {
namespace {

Status ConfigureDurability(SqliteDatabase& db) {
  DENIABLE_ASSIGN_OR_RETURN(const std::string mode, db.QueryText("PRAGMA journal_mode=WAL"));
  if (mode != "wal") return MakeError("SQLite refused WAL mode (journal_mode is \"" + mode + "\")", ErrorCode::kInternal);
  DENIABLE_TRY(db.Exec("PRAGMA synchronous=FULL"));
  // Freed space is zeroed: a moved or rolled-back row leaves no readable copy.
  DENIABLE_TRY(db.Exec("PRAGMA secure_delete=ON"));
  return db.Exec("PRAGMA busy_timeout=5000");
}

// The database and its -wal and -shm files are the owner's alone (SQLite
// gives the -wal and -shm files the database file's mode).
Status CreatePrivateFile(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
  if (fd < 0) return MakeError("cannot create " + path + ": " + std::strerror(errno), ErrorCode::kUnavailable);
  ::close(fd);
  for (const std::string& file : {path, path + "-wal", path + "-shm"}) {
    struct stat info {};
    if (::stat(file.c_str(), &info) == 0 && (info.st_mode & 077) != 0) ::chmod(file.c_str(), 0600);
  }
  return OkStatus();
}

std::string DirectoryOf(const std::string& path) {
  const auto slash = path.find_last_of('/');
  return slash == std::string::npos ? "." : slash == 0 ? "/" : path.substr(0, slash);
}

// Runs a prepared query and collects one value per row.
template <typename Row>
Result<std::vector<Row>> CollectRows(SqliteStatement& statement, const std::function<Row(const SqliteStatement&)>& read) {
  std::vector<Row> rows;
  for (;;) {
    DENIABLE_ASSIGN_OR_RETURN(const bool row, statement.Step());
    if (!row) return rows;
    rows.push_back(read(statement));
  }
}

}  // namespace

Result<std::unique_ptr<SqliteStorage>> SqliteStorage::Open(const std::string& path, std::string admin_token_path) {
  DENIABLE_TRY(CreatePrivateFile(path));
  DENIABLE_ASSIGN_OR_RETURN(SqliteDatabase db, SqliteDatabase::Open(path));
  if (auto status = ConfigureDurability(db); !status) return InContext(path, status.failure());
  if (auto status = MigrateSqlite(db); !status) return InContext(path, status.failure());
  // Whatever an earlier run left in the log goes into the database now.
  if (auto status = db.Exec("PRAGMA wal_checkpoint(TRUNCATE)"); !status) return InContext(path, status.failure());
  struct stat info {};
  if (::stat(path.c_str(), &info) != 0) {
    return MakeError("cannot read " + path + ": " + std::strerror(errno), ErrorCode::kUnavailable);
  }
  if (admin_token_path.empty()) admin_token_path = DirectoryOf(path) + "/admin-token";
  std::unique_ptr<SqliteStorage> storage(
      new SqliteStorage(std::move(db), path, {info.st_dev, info.st_ino}, std::move(admin_token_path)));
  if (auto status = storage->PrepareStatements(); !status) return InContext(path, status.failure());
  return storage;
}

Status SqliteStorage::PrepareStatements() {
  struct Item {
    SqliteStatement* target;
    const char* sql;
  };
  const Item items[] = {
      {&insert_report_, "INSERT INTO reports (survey_id, body) VALUES (?1, ?2)"},
      {&spend_token_, "INSERT OR IGNORE INTO spent_tokens (survey_id, token_hash) VALUES (?1, ?2)"},
      {&insert_invitation_, "INSERT INTO invitations (survey_id, code_hash, used) VALUES (?1, ?2, 0)"},
      {&save_ledger_,
       "INSERT INTO release_ledgers (survey_id, question_id, ledger) VALUES (?1, ?2, ?3) "
       "ON CONFLICT (survey_id, question_id) DO UPDATE SET ledger = excluded.ledger"},
      {&read_shard_, "SELECT version, blob, through FROM survey_aggregates WHERE survey_id = ?1 AND shard = ?2"},
      {&save_shard_,
       "INSERT INTO survey_aggregates (survey_id, shard, version, blob, through) VALUES (?1, ?2, ?3, ?4, ?5) "
       "ON CONFLICT (survey_id, shard) DO UPDATE SET version = excluded.version, blob = excluded.blob, "
       "through = excluded.through"},
      {&aggregate_version_, "SELECT ifnull(sum(version), 0) FROM survey_aggregates WHERE survey_id = ?1"},
      {&last_report_, "SELECT ifnull(max(rowid), 0) FROM reports"},
      {&insert_survey_,
       "INSERT INTO surveys (id, version, definition, created_at) "
       "VALUES (?1, ?2, ?3, strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))"},
  };
  for (const auto& item : items) {
    DENIABLE_ASSIGN_OR_RETURN(*item.target, db_.Prepare(item.sql));
  }
  return OkStatus();
}

Status SqliteStorage::FileIntactLocked() const {
  struct stat info {};
  if (::stat(path_.c_str(), &info) != 0 || info.st_dev != identity_.device || info.st_ino != identity_.inode) {
    return MakeError("the database file " + path_ +
                         " was removed or replaced while the server was running: nothing is written until the server "
                         "is restarted on its data directory",
                     ErrorCode::kUnavailable);
  }
  return OkStatus();
}

Status SqliteStorage::InTransaction(const std::function<Status()>& work) {
  DENIABLE_TRY(FileIntactLocked());
  DENIABLE_TRY(db_.ExecCached("BEGIN IMMEDIATE"));
  Status status = work();
  if (status) status = db_.ExecCached("COMMIT");
  if (!status) (void)db_.Exec("ROLLBACK");  // may fail if SQLite already rolled back; nothing else to do
  return status;
}

// --- start-up

Result<std::vector<StoredSurvey>> SqliteStorage::LoadSurveysLocked() {
  DENIABLE_ASSIGN_OR_RETURN(SqliteStatement statement, db_.Prepare("SELECT id, definition FROM surveys ORDER BY id"));
  return CollectRows<StoredSurvey>(statement, [](const SqliteStatement& row) {
    return StoredSurvey{row.ColumnText(0), row.ColumnText(1)};
  });
}

Result<std::vector<StoredStatus>> SqliteStorage::LoadStatusesLocked() {
  DENIABLE_ASSIGN_OR_RETURN(SqliteStatement statement,
                            db_.Prepare("SELECT survey_id, closed, ifnull(closes_at, '') FROM survey_status"));
  return CollectRows<StoredStatus>(statement, [](const SqliteStatement& row) {
    return StoredStatus{row.ColumnText(0), row.ColumnText(1) == "1", row.ColumnText(2)};
  });
}

Result<std::vector<StoredLedger>> SqliteStorage::LoadLedgersLocked() {
  DENIABLE_ASSIGN_OR_RETURN(
      SqliteStatement statement,
      db_.Prepare("SELECT survey_id, question_id, ledger FROM release_ledgers ORDER BY survey_id, question_id"));
  return CollectRows<StoredLedger>(statement, [](const SqliteStatement& row) {
    return StoredLedger{row.ColumnText(0), row.ColumnText(1), row.ColumnText(2)};
  });
}

Result<std::vector<StoredCorrection>> SqliteStorage::LoadCorrectionsLocked() {
  DENIABLE_ASSIGN_OR_RETURN(
      SqliteStatement statement,
      db_.Prepare("SELECT survey_id, made_at, changes FROM survey_corrections ORDER BY survey_id, id"));
  return CollectRows<StoredCorrection>(statement, [](const SqliteStatement& row) {
    return StoredCorrection{row.ColumnText(0), row.ColumnText(1), row.ColumnText(2)};
  });
}

Result<StoredState> SqliteStorage::LoadState() {
  std::lock_guard<std::mutex> lock(mutex_);
  StoredState state;
  DENIABLE_ASSIGN_OR_RETURN(state.surveys, LoadSurveysLocked());
  DENIABLE_ASSIGN_OR_RETURN(state.statuses, LoadStatusesLocked());
  DENIABLE_ASSIGN_OR_RETURN(state.ledgers, LoadLedgersLocked());
  DENIABLE_ASSIGN_OR_RETURN(state.corrections, LoadCorrectionsLocked());
  return state;
}

Status SqliteStorage::ForEachReport(const ReportVisitor& visit) {
  std::lock_guard<std::mutex> lock(mutex_);
  DENIABLE_ASSIGN_OR_RETURN(
      SqliteStatement statement,
      db_.Prepare("SELECT survey_id, body FROM reports ORDER BY rowid"));
  for (;;) {
    DENIABLE_ASSIGN_OR_RETURN(const bool row, statement.Step());
    if (!row) return OkStatus();
    visit(statement.ColumnText(0), statement.ColumnText(1));
  }
}

// --- surveys

Result<CreateOutcome> SqliteStorage::CreateSurvey(const std::string& id, int version, const std::string& definition,
                                                  const std::optional<std::string>& secret_key) {
  std::lock_guard<std::mutex> lock(mutex_);
  // One transaction: a deleted id cannot come back between the check and the
  // insert, and an invitation survey is never stored without its key.
  CreateOutcome outcome = CreateOutcome::kCreated;
  DENIABLE_TRY(InTransaction([&]() -> Status {
    DENIABLE_ASSIGN_OR_RETURN(const bool deleted, WasDeletedLocked(id));
    if (deleted) {
      outcome = CreateOutcome::kDeleted;
      return OkStatus();
    }
    insert_survey_.Reset();
    insert_survey_.BindText(1, id);
    insert_survey_.BindInt(2, version);
    insert_survey_.BindText(3, definition);
    auto done = insert_survey_.Step();
    insert_survey_.Reset();
    if (!done) {
      if (!db_.LastErrorWasConstraint()) return std::move(done).failure();
      outcome = CreateOutcome::kExists;  // nothing written: the commit is empty
      return OkStatus();
    }
    if (secret_key) DENIABLE_TRY(InsertSurveyKeyLocked(id, *secret_key));
    return OkStatus();
  }));
  if (outcome == CreateOutcome::kCreated) CatalogChangedLocked();
  return outcome;
}

Status SqliteStorage::InsertSurveyKeyLocked(const std::string& survey_id, const std::string& secret_key) {
  DENIABLE_ASSIGN_OR_RETURN(SqliteStatement insert,
                            db_.Prepare("INSERT INTO survey_keys (survey_id, secret) VALUES (?1, ?2)"));
  insert.BindText(1, survey_id);
  insert.BindBlob(2, secret_key);
  DENIABLE_TRY(insert.Step());
  return OkStatus();
}

Result<std::string> SqliteStorage::LoadOrCreateSurveyKey(const std::string& survey_id,
                                                         const std::function<std::string()>& fresh) {
  std::lock_guard<std::mutex> lock(mutex_);
  std::string key;
  // One transaction under SQLite's write lock: read, and store only when none is (two nodes: one key).
  DENIABLE_TRY(InTransaction([&]() -> Status {
    DENIABLE_ASSIGN_OR_RETURN(const bool deleted, WasDeletedLocked(survey_id));
    if (deleted) return MakeError("survey \"" + survey_id + "\" was deleted", ErrorCode::kNotFound);
    DENIABLE_ASSIGN_OR_RETURN(SqliteStatement select, db_.Prepare("SELECT secret FROM survey_keys WHERE survey_id = ?1"));
    select.BindText(1, survey_id);
    DENIABLE_ASSIGN_OR_RETURN(const bool found, select.Step());
    if (found) {
      key = select.ColumnBlob(0);
      return OkStatus();
    }
    key = fresh();
    return InsertSurveyKeyLocked(survey_id, key);
  }));
  return key;
}

Status SqliteStorage::SetStatus(const StoredStatus& status) {
  std::lock_guard<std::mutex> lock(mutex_);
  DENIABLE_TRY(FileIntactLocked());
  DENIABLE_ASSIGN_OR_RETURN(
      SqliteStatement statement,
      db_.Prepare("INSERT INTO survey_status (survey_id, closed, closes_at) VALUES (?1, ?2, nullif(?3, '')) "
                  "ON CONFLICT (survey_id) DO UPDATE SET closed = excluded.closed, closes_at = excluded.closes_at"));
  statement.BindText(1, status.survey_id);
  statement.BindInt(2, status.closed ? 1 : 0);
  statement.BindText(3, status.closes_at);
  DENIABLE_TRY(statement.Step());  // autocommit: the statement is its transaction
  CatalogChangedLocked();
  return OkStatus();
}

Result<StoredCorrection> SqliteStorage::CorrectSurvey(const std::string& survey_id, const std::string& expected,
                                                      const std::string& corrected, const std::string& changes) {
  std::lock_guard<std::mutex> lock(mutex_);
  StoredCorrection record{survey_id, "", changes};
  DENIABLE_TRY(InTransaction([&]() -> Status {
    DENIABLE_ASSIGN_OR_RETURN(SqliteStatement select, db_.Prepare("SELECT definition FROM surveys WHERE id = ?1"));
    select.BindText(1, survey_id);
    DENIABLE_ASSIGN_OR_RETURN(const bool found, select.Step());
    if (!found) return MakeError("survey \"" + survey_id + "\" was deleted", ErrorCode::kNotFound);
    const bool same = select.ColumnText(0) == expected;
    select.Reset();  // done reading before the table is written
    if (!same) {
      return MakeError("survey \"" + survey_id + "\" was corrected meanwhile", ErrorCode::kConflict);
    }
    DENIABLE_ASSIGN_OR_RETURN(record.made_at, db_.QueryText("SELECT strftime('%Y-%m-%dT%H:%M:%SZ', 'now')"));
    DENIABLE_ASSIGN_OR_RETURN(SqliteStatement update, db_.Prepare("UPDATE surveys SET definition = ?2 WHERE id = ?1"));
    update.BindText(1, survey_id);
    update.BindText(2, corrected);
    DENIABLE_TRY(update.Step());
    DENIABLE_ASSIGN_OR_RETURN(
        SqliteStatement insert,
        db_.Prepare("INSERT INTO survey_corrections (survey_id, made_at, changes) VALUES (?1, ?2, ?3)"));
    insert.BindText(1, survey_id);
    insert.BindText(2, record.made_at);
    insert.BindText(3, changes);
    DENIABLE_TRY(insert.Step());
    return OkStatus();
  }));
  CatalogChangedLocked();
  return record;
}

Result<bool> SqliteStorage::WasDeleted(const std::string& survey_id) {
  std::lock_guard<std::mutex> lock(mutex_);
  return WasDeletedLocked(survey_id);
}

Result<bool> SqliteStorage::WasDeletedLocked(const std::string& survey_id) {
  DENIABLE_ASSIGN_OR_RETURN(SqliteStatement* statement, db_.Cached("SELECT 1 FROM deleted_surveys WHERE survey_id = ?1"));
  ResetOnExit reset(*statement);
  statement->BindText(1, survey_id);
  return statement->Step();
}

Result<bool> SqliteStorage::IsClosedLocked(const std::string& survey_id) {
  DENIABLE_ASSIGN_OR_RETURN(SqliteStatement* statement,
                            db_.Cached("SELECT closed, ifnull(closes_at, '') FROM survey_status WHERE survey_id = ?1"));
  ResetOnExit reset(*statement);
  statement->BindText(1, survey_id);
  DENIABLE_ASSIGN_OR_RETURN(const bool row, statement->Step());
  if (!row) return false;
  if (statement->ColumnText(0) == "1") return true;
  const std::string closes_at = statement->ColumnText(1);
  if (closes_at.empty()) return false;
  const auto closes = ParseRfc3339(closes_at);
  return !closes || NowSeconds() >= *closes;  // as SurveyEntry::ClosedReason: unreadable means closed
}

Result<std::int64_t> SqliteStorage::DeleteSurvey(const std::string& survey_id) {
  std::lock_guard<std::mutex> lock(mutex_);
  // Runs one statement on the survey's id: the rows it changed.
  auto run = [&](const char* sql) -> Result<std::int64_t> {
    DENIABLE_ASSIGN_OR_RETURN(SqliteStatement statement, db_.Prepare(sql));
    statement.BindText(1, survey_id);
    DENIABLE_TRY(statement.Step());
    return db_.Changes();
  };
  std::int64_t reports = 0;
  DENIABLE_TRY(InTransaction([&]() -> Status {
    // Concurrent deletions: the first deletes, the others find it deleted.
    DENIABLE_ASSIGN_OR_RETURN(const bool already, WasDeletedLocked(survey_id));
    if (already) return MakeError("survey \"" + survey_id + "\" was deleted already", ErrorCode::kNotFound);
    DENIABLE_ASSIGN_OR_RETURN(reports, run("DELETE FROM reports WHERE survey_id = ?1"));
    for (const char* sql : {"DELETE FROM invitations WHERE survey_id = ?1", "DELETE FROM spent_tokens WHERE survey_id = ?1",
                            "DELETE FROM survey_keys WHERE survey_id = ?1", "DELETE FROM release_ledgers WHERE survey_id = ?1",
                            "DELETE FROM survey_status WHERE survey_id = ?1", "DELETE FROM survey_aggregates WHERE survey_id = ?1",
                            "DELETE FROM survey_corrections WHERE survey_id = ?1", "DELETE FROM surveys WHERE id = ?1",
                            "INSERT INTO deleted_surveys (survey_id, deleted_at) "
                            "VALUES (?1, strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))"}) {
      DENIABLE_TRY(run(sql));
    }
    return OkStatus();
  }));
  CatalogChangedLocked();
  // secure_delete zeroed the freed pages; emptying the log leaves no copy of
  // the deleted rows there either. The deletion is committed whatever happens
  // here: a log that cannot be emptied now (a reader holds it) is emptied by
  // the next commit's checkpoint, and the survey is gone all the same.
  if (auto emptied = TruncateLog(); !emptied) {
    std::cerr << "warning: survey " << survey_id << " deleted, but " << emptied.error() << std::endl;
  }
  return reports;
}

// --- invitation codes

Status SqliteStorage::AddInvitations(const std::string& survey_id, const std::vector<std::string>& code_hashes) {
  std::lock_guard<std::mutex> lock(mutex_);
  return InTransaction([&]() -> Status {
    for (const auto& hash : code_hashes) {
      insert_invitation_.Reset();
      insert_invitation_.BindText(1, survey_id);
      insert_invitation_.BindText(2, hash);
      DENIABLE_TRY(insert_invitation_.Step());
    }
    return OkStatus();
  });
}

Result<bool> SqliteStorage::InvitationUnused(const std::string& survey_id, const std::string& code_hash) {
  std::lock_guard<std::mutex> lock(mutex_);
  return InvitationUnusedLocked(survey_id, code_hash);
}

Result<bool> SqliteStorage::InvitationUnusedLocked(const std::string& survey_id, const std::string& code_hash) {
  DENIABLE_ASSIGN_OR_RETURN(
      SqliteStatement statement,
      db_.Prepare("SELECT 1 FROM invitations WHERE survey_id = ?1 AND code_hash = ?2 AND used = 0"));
  statement.BindText(1, survey_id);
  statement.BindText(2, code_hash);
  return statement.Step();
}

Result<InvitationCounts> SqliteStorage::CountInvitations(const std::string& survey_id) {
  std::lock_guard<std::mutex> lock(mutex_);
  DENIABLE_ASSIGN_OR_RETURN(
      SqliteStatement statement,
      db_.Prepare("SELECT COUNT(*), COALESCE(SUM(used), 0) FROM invitations WHERE survey_id = ?1"));
  statement.BindText(1, survey_id);
  DENIABLE_ASSIGN_OR_RETURN(const bool row, statement.Step());
  if (!row) return InvitationCounts{};
  return InvitationCounts{statement.ColumnInt(0), statement.ColumnInt(1)};
}

Result<IssueOutcome> SqliteStorage::SpendInvitationForToken(const std::string& survey_id, const std::string& code_hash,
                                                            const std::string& blinded_hash) {
  std::lock_guard<std::mutex> lock(mutex_);
  IssueOutcome outcome = IssueOutcome::kRejected;
  // BEGIN IMMEDIATE: the read and the spend are one transaction under SQLite's
  // write lock, committed (synchronous=FULL) before the caller answers.
  DENIABLE_TRY(InTransaction([&]() -> Status {
    DENIABLE_ASSIGN_OR_RETURN(const bool deleted, WasDeletedLocked(survey_id));
    if (deleted) {
      outcome = IssueOutcome::kSurveyDeleted;
      return OkStatus();
    }
    DENIABLE_ASSIGN_OR_RETURN(const bool closed, IsClosedLocked(survey_id));
    if (closed) {
      outcome = IssueOutcome::kSurveyClosed;
      return OkStatus();
    }
    DENIABLE_ASSIGN_OR_RETURN(
        SqliteStatement select,
        db_.Prepare("SELECT used, ifnull(blinded_hash, '') FROM invitations WHERE survey_id = ?1 AND code_hash = ?2"));
    select.BindText(1, survey_id);
    select.BindText(2, code_hash);
    DENIABLE_ASSIGN_OR_RETURN(const bool known, select.Step());
    if (!known) return OkStatus();  // kRejected
    if (select.ColumnInt(0) != 0) {
      // Used: by this element (a retry), another one, or a report before tokens (no element).
      const std::string spent_for = select.ColumnText(1);
      outcome = !spent_for.empty() && spent_for == blinded_hash ? IssueOutcome::kRepeated : IssueOutcome::kRejected;
      return OkStatus();
    }
    DENIABLE_ASSIGN_OR_RETURN(
        SqliteStatement spend,
        db_.Prepare("UPDATE invitations SET used = 1, blinded_hash = ?3 WHERE survey_id = ?1 AND code_hash = ?2 AND used = 0"));
    spend.BindText(1, survey_id);
    spend.BindText(2, code_hash);
    spend.BindText(3, blinded_hash);
    DENIABLE_TRY(spend.Step());
    outcome = db_.Changes() == 1 ? IssueOutcome::kSpent : IssueOutcome::kRejected;
    return OkStatus();
  }));
  return outcome;
}

// --- reports

Status SqliteStorage::ForEachReportOf(const std::string& survey_id, const BodyVisitor& visit,
                                      const std::function<bool()>& cancelled, int chunk) {
  {
    const char* sql = "SELECT rowid, body FROM reports WHERE survey_id = ?1 AND rowid > ?2 ORDER BY rowid LIMIT ?3";
    long long after = std::numeric_limits<long long>::min();
    for (;;) {
      if (cancelled && cancelled()) return MakeError("the read was cancelled", ErrorCode::kCancelled);
      std::vector<std::string> bodies;
      {
        std::lock_guard<std::mutex> lock(mutex_);
        DENIABLE_ASSIGN_OR_RETURN(SqliteStatement statement, db_.Prepare(sql));
        statement.BindText(1, survey_id);
        statement.BindInt(2, after);
        statement.BindInt(3, chunk);
        for (;;) {
          DENIABLE_ASSIGN_OR_RETURN(const bool row, statement.Step());
          if (!row) break;
          after = statement.ColumnInt(0);
          bodies.push_back(statement.ColumnText(1));
        }
      }
      for (const auto& body : bodies) visit(body);
      if (static_cast<int>(bodies.size()) < chunk) break;
    }
  }
  return OkStatus();
}

Result<bool> SqliteStorage::TokenSpentLocked(const std::string& survey_id, const std::string& token_hash) {
  DENIABLE_ASSIGN_OR_RETURN(SqliteStatement* statement,
                            db_.Cached("SELECT 1 FROM spent_tokens WHERE survey_id = ?1 AND token_hash = ?2"));
  ResetOnExit reset(*statement);
  statement->BindText(1, survey_id);
  statement->BindText(2, token_hash);
  return statement->Step();
}

Result<bool> SqliteStorage::StoreRecord(const ReportRecord& record) {
  if (record.token_hash) {
    // The transaction's own check: the token's row is the report's right to be stored.
    spend_token_.Reset();
    spend_token_.BindText(1, record.survey_id);
    spend_token_.BindText(2, *record.token_hash);
    DENIABLE_TRY(spend_token_.Step());
    if (db_.Changes() != 1) return false;
  }
  insert_report_.Reset();
  insert_report_.BindText(1, record.survey_id);
  insert_report_.BindText(2, record.body);
  DENIABLE_TRY(insert_report_.Step());
  return true;
}

Status SqliteStorage::TruncateLog() {
  // The pragma succeeds even when it could not finish (another reader holds
  // the log): its first column says so, and then the log is not empty.
  DENIABLE_ASSIGN_OR_RETURN(const std::string busy, db_.QueryText("PRAGMA wal_checkpoint(TRUNCATE)"));
  if (busy != "0") {
    return MakeError("the write-ahead log could not be emptied: another process is reading the database",
                     ErrorCode::kBusy);
  }
  return OkStatus();
}

// In the order of RecordOutcome's documentation. A token the commit would
// refuse (spent, or spent by an earlier report of this batch) is refused
// first, so it takes no model round's place from the honest reports after
// it; what admission refuses is refused next; then a report validated
// before its survey was deleted or closed (DeleteSurvey and SetStatus hold
// the same lock) is not stored: the deletion promised every report gone, the
// close's 200 promised no report after it.
Result<std::vector<RecordOutcome>> SqliteStorage::DecideLocked(const std::vector<const ReportRecord*>& records,
                                                               const BatchAdmission& admit,
                                                               AggregateHooks* aggregates) {
  std::vector<RecordOutcome> outcomes(records.size(), RecordOutcome::kStored);
  std::set<std::pair<std::string, std::string>> in_batch;  // (survey, token hash)
  std::vector<std::size_t> candidates;
  for (std::size_t i = 0; i < records.size(); ++i) {
    const ReportRecord& record = *records[i];
    if (record.token_hash) {
      const bool repeated = !in_batch.emplace(record.survey_id, *record.token_hash).second;
      auto spent = repeated ? Result<bool>(true) : TokenSpentLocked(record.survey_id, *record.token_hash);
      // A failed check is left to the commit, which reports the failure itself.
      if (spent && *spent) {
        outcomes[i] = RecordOutcome::kTokenUsed;
        continue;
      }
    }
    candidates.push_back(i);
  }
  if (aggregates != nullptr) {
    // Under the store's lock nothing else writes the file: the shard rows are
    // as locked as they get, and the caller's state is refreshed from them
    // (one node: it is current already, so only the version is read).
    std::set<std::string> refreshed;
    for (std::size_t i : candidates) {
      const std::string& id = records[i]->survey_id;
      if (!refreshed.insert(id).second || !aggregates->NeedsGlobalState(id)) continue;
      DENIABLE_ASSIGN_OR_RETURN(const std::int64_t version, AggregateVersionLocked(id));
      DENIABLE_TRY(aggregates->Refresh(id, version, [&] { return LoadAggregateLocked(id); }));
    }
  }
  if (admit && !candidates.empty()) {
    const std::vector<bool> admitted = admit(candidates);
    for (std::size_t k = 0; k < candidates.size(); ++k) {
      if (k >= admitted.size() || !admitted[k]) outcomes[candidates[k]] = RecordOutcome::kNotAdmitted;
    }
  }
  std::map<std::string, RecordOutcome> refusal;  // per survey: kStored when it takes reports
  for (std::size_t i = 0; i < records.size(); ++i) {
    if (outcomes[i] != RecordOutcome::kStored) continue;
    const std::string& id = records[i]->survey_id;
    if (refusal.count(id) == 0) {
      DENIABLE_ASSIGN_OR_RETURN(const bool deleted, WasDeletedLocked(id));
      bool closed = false;
      if (!deleted) {
        DENIABLE_ASSIGN_OR_RETURN(closed, IsClosedLocked(id));
      }
      refusal[id] = deleted ? RecordOutcome::kSurveyDeleted : closed ? RecordOutcome::kSurveyClosed : RecordOutcome::kStored;
    }
    outcomes[i] = refusal[id];
  }
  return outcomes;
}

Result<std::vector<RecordOutcome>> SqliteStorage::CommitReports(const std::vector<const ReportRecord*>& records,
                                                                const BatchAdmission& admit,
                                                                AggregateHooks* aggregates) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (auto intact = FileIntactLocked(); !intact) {
    std::cerr << "error: " << intact.error() << std::endl;
    return std::vector<RecordOutcome>(records.size(), RecordOutcome::kUnavailable);
  }
  // One transaction, BEGIN IMMEDIATE: the decisions (admission against the
  // counted state included), each report with its token's spending, and the
  // shards, so a crash keeps all or none, and another SqliteStorage on the
  // same file (a second node, in tests) cannot commit between the decisions
  // and the writes.
  std::vector<RecordOutcome> outcomes;
  DENIABLE_TRY(InTransaction([&]() -> Status {
    DENIABLE_ASSIGN_OR_RETURN(outcomes, DecideLocked(records, admit, aggregates));
    for (std::size_t i = 0; i < records.size(); ++i) {
      if (outcomes[i] != RecordOutcome::kStored) continue;
      DENIABLE_ASSIGN_OR_RETURN(const bool stored, StoreRecord(*records[i]));
      if (!stored) outcomes[i] = RecordOutcome::kTokenUsed;
    }
    // The shards after the reports: what they count is what this commit stored.
    if (aggregates != nullptr) DENIABLE_TRY(ExtendShardsLocked(records, outcomes, *aggregates));
    return OkStatus();
  }));
  return outcomes;
}

Status SqliteStorage::ExtendShardsLocked(const std::vector<const ReportRecord*>& records,
                                         const std::vector<RecordOutcome>& outcomes, AggregateHooks& aggregates) {
  std::map<std::string, std::vector<std::size_t>> stored;  // per survey, its stored records in batch order
  for (std::size_t i = 0; i < records.size(); ++i) {
    if (outcomes[i] == RecordOutcome::kStored) stored[records[i]->survey_id].push_back(i);
  }
  const int shard = 0;  // one node, one shard
  for (const auto& [survey_id, indices] : stored) {
    read_shard_.Reset();
    read_shard_.BindText(1, survey_id);
    read_shard_.BindInt(2, shard);
    DENIABLE_ASSIGN_OR_RETURN(const bool found, read_shard_.Step());
    std::optional<AggregateShard> current;
    if (found) {
      current = AggregateShard{shard, read_shard_.ColumnInt(0), read_shard_.ColumnText(1), read_shard_.ColumnInt(2)};
    }
    read_shard_.Reset();
    // Every SqliteStorage writes shard 0: the survey's version is that shard's.
    const std::int64_t survey_version = current ? current->version : 0;
    DENIABLE_ASSIGN_OR_RETURN(const std::string blob, aggregates.Extend(survey_id, current, survey_version, indices));
    if (blob.empty()) {
      // Kept as it is (storage.h): its `through` leads a start-up to this commit's reports.
      if (current) continue;
      return MakeError("survey \"" + survey_id + "\": its shard's first blob was not given", ErrorCode::kInternal);
    }
    // The blob counts every report of the survey stored so far, this commit's included.
    last_report_.Reset();
    DENIABLE_TRY(last_report_.Step());
    const std::int64_t through = last_report_.ColumnInt(0);
    last_report_.Reset();
    save_shard_.Reset();
    save_shard_.BindText(1, survey_id);
    save_shard_.BindInt(2, shard);
    save_shard_.BindInt(3, (current ? current->version : 0) + 1);
    save_shard_.BindText(4, blob);
    save_shard_.BindInt(5, through);
    DENIABLE_TRY(save_shard_.Step());
    save_shard_.Reset();
  }
  return OkStatus();
}

// --- aggregates

Result<std::int64_t> SqliteStorage::AggregateVersionLocked(const std::string& survey_id) {
  aggregate_version_.Reset();
  aggregate_version_.BindText(1, survey_id);
  DENIABLE_ASSIGN_OR_RETURN(const bool row, aggregate_version_.Step());
  const std::int64_t version = row ? aggregate_version_.ColumnInt(0) : 0;
  aggregate_version_.Reset();
  return version;
}

Result<StoredAggregate> SqliteStorage::LoadAggregateLocked(const std::string& survey_id) {
  DENIABLE_ASSIGN_OR_RETURN(
      SqliteStatement select,
      db_.Prepare("SELECT shard, version, blob, through FROM survey_aggregates WHERE survey_id = ?1 ORDER BY shard"));
  select.BindText(1, survey_id);
  StoredAggregate aggregate;
  for (;;) {
    DENIABLE_ASSIGN_OR_RETURN(const bool row, select.Step());
    if (!row) return aggregate;
    aggregate.shards.push_back(
        AggregateShard{static_cast<int>(select.ColumnInt(0)), select.ColumnInt(1), select.ColumnText(2), select.ColumnInt(3)});
    aggregate.version += aggregate.shards.back().version;
  }
}

Result<std::int64_t> SqliteStorage::AggregateVersion(const std::string& survey_id) {
  std::lock_guard<std::mutex> lock(mutex_);
  return AggregateVersionLocked(survey_id);
}

Result<StoredAggregate> SqliteStorage::LoadAggregate(const std::string& survey_id) {
  std::lock_guard<std::mutex> lock(mutex_);
  return LoadAggregateLocked(survey_id);
}

Status SqliteStorage::ForEachReportAfter(const std::string& survey_id, std::int64_t through, const BodyVisitor& visit) {
  std::lock_guard<std::mutex> lock(mutex_);
  DENIABLE_ASSIGN_OR_RETURN(SqliteStatement select,
                            db_.Prepare("SELECT body FROM reports WHERE survey_id = ?1 AND rowid > ?2 ORDER BY rowid"));
  select.BindText(1, survey_id);
  select.BindInt(2, through);
  for (;;) {
    DENIABLE_ASSIGN_OR_RETURN(const bool row, select.Step());
    if (!row) return OkStatus();
    visit(select.ColumnText(0));
  }
}

// --- release ledgers

Status SqliteStorage::UpdateLedger(const std::string& survey_id, const std::string& question_id,
                                   const LedgerUpdate& update) {
  std::lock_guard<std::mutex> lock(mutex_);
  // BEGIN IMMEDIATE: the checks, the read and the write are one transaction under SQLite's write lock.
  DENIABLE_TRY(InTransaction([&]() -> Status {
    // A release made as its survey was being deleted leaves nothing behind.
    DENIABLE_ASSIGN_OR_RETURN(const bool deleted, WasDeletedLocked(survey_id));
    if (deleted) return MakeError("survey \"" + survey_id + "\" was deleted", ErrorCode::kNotFound);
    DENIABLE_ASSIGN_OR_RETURN(const std::optional<std::string> stored, StoredLedgerLocked(survey_id, question_id));
    DENIABLE_ASSIGN_OR_RETURN(const std::string ledger, update(stored));
    save_ledger_.Reset();
    save_ledger_.BindText(1, survey_id);
    save_ledger_.BindText(2, question_id);
    save_ledger_.BindText(3, ledger);
    DENIABLE_TRY(save_ledger_.Step());
    return OkStatus();
  }));
  CatalogChangedLocked();
  return OkStatus();
}

Result<std::optional<std::string>> SqliteStorage::StoredLedgerLocked(const std::string& survey_id,
                                                                    const std::string& question_id) {
  DENIABLE_ASSIGN_OR_RETURN(
      SqliteStatement select,
      db_.Prepare("SELECT ledger FROM release_ledgers WHERE survey_id = ?1 AND question_id = ?2"));
  select.BindText(1, survey_id);
  select.BindText(2, question_id);
  DENIABLE_ASSIGN_OR_RETURN(const bool found, select.Step());
  if (!found) return std::optional<std::string>();
  return std::optional<std::string>(select.ColumnText(0));
}

// --- the admin token

Result<std::string> SqliteStorage::LoadOrCreateAdminToken(const std::function<std::string()>& fresh,
                                                          const std::function<Status(const std::string&)>& valid) {
  std::lock_guard<std::mutex> lock(mutex_);
  return LoadOrCreateTokenFile(admin_token_path_, fresh, valid);
}

// --- catalog sync

void SqliteStorage::CatalogChangedLocked() {
  {
    std::lock_guard<std::mutex> lock(wait_mutex_);
    ++catalog_changes_;
  }
  catalog_changed_.notify_all();
}

Result<std::uint64_t> SqliteStorage::CatalogVersion() {
  std::lock_guard<std::mutex> lock(mutex_);
  DENIABLE_ASSIGN_OR_RETURN(const std::string data_version, db_.QueryText("PRAGMA data_version"));
  std::uint64_t own = 0;
  {
    std::lock_guard<std::mutex> wait_lock(wait_mutex_);
    own = catalog_changes_ & 0xffffffffu;
  }
  return (static_cast<std::uint64_t>(std::stoull(data_version.empty() ? "0" : data_version)) << 32) | own;
}

void SqliteStorage::WaitForChange(std::uint64_t seen, std::chrono::milliseconds timeout) {
  // This connection's changes wake it at once; another connection's (tests
  // only) are seen at the timeout.
  std::unique_lock<std::mutex> lock(wait_mutex_);
  catalog_changed_.wait_for(lock, timeout,
                            [&] { return interrupted_ || (catalog_changes_ & 0xffffffffu) != (seen & 0xffffffffu); });
}

void SqliteStorage::InterruptWait() {
  {
    std::lock_guard<std::mutex> lock(wait_mutex_);
    interrupted_ = true;
  }
  catalog_changed_.notify_all();
}

}  // namespace deniable::server
