#include "server/storage.h"

namespace deniable::server {
namespace {

constexpr int kSchemaVersion = 1;

constexpr const char* kSchema = R"sql(
CREATE TABLE IF NOT EXISTS surveys (
  id TEXT PRIMARY KEY,
  version INTEGER NOT NULL,
  definition TEXT NOT NULL,
  created_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS reports (
  survey_id TEXT NOT NULL,
  body TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS reports_by_survey ON reports (survey_id);
CREATE TABLE IF NOT EXISTS invitations (
  survey_id TEXT NOT NULL,
  code_hash TEXT NOT NULL,
  used INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (survey_id, code_hash)
) WITHOUT ROWID;
)sql";

Status ConfigureDurability(SqliteDatabase& db) {
  auto mode = db.QueryText("PRAGMA journal_mode=WAL");
  if (!mode) return MakeError(mode.error());
  if (*mode != "wal") return MakeError("SQLite refused WAL mode (journal_mode is \"" + *mode + "\")");
  DENIABLE_TRY(db.Exec("PRAGMA synchronous=FULL"));
  return db.Exec("PRAGMA busy_timeout=5000");
}

Status CreateSchema(SqliteDatabase& db) {
  auto version = db.QueryText("PRAGMA user_version");
  if (!version) return MakeError(version.error());
  if (std::stoi(version->empty() ? "0" : *version) > kSchemaVersion) {
    return MakeError("the database was created by a newer version of deniable (schema " + *version + ")");
  }
  DENIABLE_TRY(db.Exec(std::string("BEGIN IMMEDIATE;") + kSchema + "PRAGMA user_version=" +
                       std::to_string(kSchemaVersion) + ";COMMIT;"));
  return OkStatus();
}

}  // namespace

Result<std::unique_ptr<Storage>> Storage::Open(const std::string& path) {
  auto db = SqliteDatabase::Open(path);
  if (!db) return MakeError(db.error());
  if (auto status = ConfigureDurability(db.value()); !status) return MakeError(path + ": " + status.error());
  if (auto status = CreateSchema(db.value()); !status) return MakeError(path + ": " + status.error());
  std::unique_ptr<Storage> storage(new Storage(std::move(db).value()));
  if (auto status = storage->PrepareStatements(); !status) return MakeError(path + ": " + status.error());
  return storage;
}

Status Storage::PrepareStatements() {
  struct Item {
    SqliteStatement* target;
    const char* sql;
  };
  const Item items[] = {
      {&insert_report_, "INSERT INTO reports (survey_id, body) VALUES (?1, ?2)"},
      {&use_invitation_, "UPDATE invitations SET used = 1 WHERE survey_id = ?1 AND code_hash = ?2 AND used = 0"},
      {&insert_invitation_, "INSERT INTO invitations (survey_id, code_hash, used) VALUES (?1, ?2, 0)"},
      {&insert_survey_,
       "INSERT INTO surveys (id, version, definition, created_at) "
       "VALUES (?1, ?2, ?3, strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))"},
  };
  for (const auto& item : items) {
    auto statement = db_.Prepare(item.sql);
    if (!statement) return MakeError(statement.error());
    *item.target = std::move(statement).value();
  }
  return OkStatus();
}

Status Storage::InTransaction(const std::function<Status()>& work) {
  DENIABLE_TRY(db_.Exec("BEGIN IMMEDIATE"));
  Status status = work();
  if (status) status = db_.Exec("COMMIT");
  if (!status) (void)db_.Exec("ROLLBACK");  // may fail if SQLite already rolled back; nothing else to do
  return status;
}

Result<std::vector<StoredSurvey>> Storage::LoadSurveys() {
  std::lock_guard<std::mutex> lock(mutex_);
  auto statement = db_.Prepare("SELECT id, definition FROM surveys ORDER BY id");
  if (!statement) return MakeError(statement.error());
  std::vector<StoredSurvey> surveys;
  for (;;) {
    auto row = statement.value().Step();
    if (!row) return MakeError(row.error());
    if (!*row) break;
    surveys.push_back({statement->ColumnText(0), statement->ColumnText(1)});
  }
  return surveys;
}

Status Storage::ForEachReport(const std::string& survey_id, const std::function<void(const std::string&)>& visit) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto statement = db_.Prepare("SELECT body FROM reports WHERE survey_id = ?1 ORDER BY rowid");
  if (!statement) return MakeError(statement.error());
  statement.value().BindText(1, survey_id);
  for (;;) {
    auto row = statement.value().Step();
    if (!row) return MakeError(row.error());
    if (!*row) return OkStatus();
    visit(statement->ColumnText(0));
  }
}

Result<bool> Storage::InsertSurvey(const std::string& id, int version, const std::string& definition) {
  std::lock_guard<std::mutex> lock(mutex_);
  insert_survey_.Reset();
  insert_survey_.BindText(1, id);
  insert_survey_.BindInt(2, version);
  insert_survey_.BindText(3, definition);
  auto done = insert_survey_.Step();  // autocommit: one durable transaction
  if (done) return true;
  if (db_.LastErrorWasConstraint()) return false;
  return MakeError(done.error());
}

Status Storage::InsertInvitations(const std::string& survey_id, const std::vector<std::string>& code_hashes) {
  std::lock_guard<std::mutex> lock(mutex_);
  return InTransaction([&]() -> Status {
    for (const auto& hash : code_hashes) {
      insert_invitation_.Reset();
      insert_invitation_.BindText(1, survey_id);
      insert_invitation_.BindText(2, hash);
      auto done = insert_invitation_.Step();
      if (!done) return MakeError(done.error());
    }
    return OkStatus();
  });
}

Result<RecordOutcome> Storage::StoreRecord(const ReportRecord& record) {
  // Check-and-mark of the code and the insert run in the same transaction, by
  // the single writer: a code can never be spent twice, and a rejected record
  // leaves no trace.
  if (record.invitation_code_hash) {
    use_invitation_.Reset();
    use_invitation_.BindText(1, record.survey_id);
    use_invitation_.BindText(2, *record.invitation_code_hash);
    auto done = use_invitation_.Step();
    if (!done) return MakeError(done.error());
    if (db_.Changes() != 1) return RecordOutcome::kInvitationRejected;
  }
  insert_report_.Reset();
  insert_report_.BindText(1, record.survey_id);
  insert_report_.BindText(2, record.body);
  auto done = insert_report_.Step();
  if (!done) return MakeError(done.error());
  return RecordOutcome::kStored;
}

Result<std::vector<RecordOutcome>> Storage::CommitReports(const std::vector<const ReportRecord*>& records) {
  std::lock_guard<std::mutex> lock(mutex_);
  std::vector<RecordOutcome> outcomes;
  outcomes.reserve(records.size());
  Status status = InTransaction([&]() -> Status {
    for (const ReportRecord* record : records) {
      auto outcome = StoreRecord(*record);
      if (!outcome) return MakeError(outcome.error());
      outcomes.push_back(*outcome);
    }
    return OkStatus();
  });
  if (!status) return MakeError(status.error());
  return outcomes;
}

}  // namespace deniable::server
