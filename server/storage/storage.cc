#include "server/storage/storage.h"

#include "server/base/utc_time.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <iostream>
#include <limits>
#include <map>
#include <numeric>

#include <nlohmann/json.hpp>

#include "core/common/os_random.h"

namespace deniable::server {
namespace {

constexpr int kSchemaVersion = 5;

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
-- No index on survey_id: reports are read only at start, in one pass over
-- the table, and an index leaf written with every commit cost 10% of ingest
-- throughput (schema 2 had one; schema 3 drops it).
DROP INDEX IF EXISTS reports_by_survey;
CREATE TABLE IF NOT EXISTS invitations (
  survey_id TEXT NOT NULL,
  code_hash TEXT NOT NULL,
  used INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (survey_id, code_hash)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS sealed_reports (
  id INTEGER PRIMARY KEY,
  survey_id TEXT NOT NULL,
  body TEXT NOT NULL
);
-- Schema 4: whether a survey accepts reports (closed by the admin, or from a
-- closing time), and the ids of deleted surveys (never reused: old links and
-- codes must not reach a new survey).
CREATE TABLE IF NOT EXISTS survey_status (
  survey_id TEXT PRIMARY KEY,
  closed INTEGER NOT NULL DEFAULT 0,
  closes_at TEXT
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS deleted_surveys (
  survey_id TEXT PRIMARY KEY,
  deleted_at TEXT NOT NULL
) WITHOUT ROWID;
-- Schema 4: the release ledger of each question answered in confidence
-- (core/central/release_ledger.h), replaced whole by each release.
CREATE TABLE IF NOT EXISTS release_ledgers (
  survey_id TEXT NOT NULL,
  question_id TEXT NOT NULL,
  ledger TEXT NOT NULL,
  PRIMARY KEY (survey_id, question_id)
) WITHOUT ROWID;
)sql";

// Schema 1 kept invitation surveys' reports in arrival order: they move to
// sealed_reports in a random order.
constexpr const char* kSealExistingInvitationReports = R"sql(
INSERT INTO sealed_reports (survey_id, body)
  SELECT survey_id, body FROM reports WHERE survey_id IN (SELECT DISTINCT survey_id FROM invitations) ORDER BY random();
DELETE FROM reports WHERE survey_id IN (SELECT DISTINCT survey_id FROM invitations);
)sql";

Status ConfigureDurability(SqliteDatabase& db) {
  auto mode = db.QueryText("PRAGMA journal_mode=WAL");
  if (!mode) return MakeError(mode.error());
  if (*mode != "wal") return MakeError("SQLite refused WAL mode (journal_mode is \"" + *mode + "\")");
  DENIABLE_TRY(db.Exec("PRAGMA synchronous=FULL"));
  // Freed space is zeroed: a moved or rolled-back row leaves no readable copy.
  DENIABLE_TRY(db.Exec("PRAGMA secure_delete=ON"));
  return db.Exec("PRAGMA busy_timeout=5000");
}

// Schema 5: a model question (linear_regression) trains K chains, 8 unless
// its definition says otherwise. A model stored before schema 5 trained one:
// its definition gets "chains": 1, so its stored rounds replay as trained
// (replayed as 8 chains, every round after the first would be judged against
// another state than the one its respondents computed with).
Status DeclareOneChainForStoredModels(SqliteDatabase& db) {
  auto select = db.Prepare("SELECT id, definition FROM surveys");
  if (!select) return MakeError(select.error());
  std::vector<std::pair<std::string, std::string>> updates;
  for (;;) {
    auto row = select.value().Step();
    if (!row) return MakeError(row.error());
    if (!*row) break;
    auto definition = nlohmann::json::parse(select->ColumnText(1), nullptr, false);
    if (definition.is_discarded() || !definition.contains("questions") || !definition["questions"].is_array()) continue;
    bool changed = false;
    for (auto& question : definition["questions"]) {
      if (question.is_object() && question.value("type", "") == "linear_regression" && !question.contains("chains")) {
        question["chains"] = 1;
        changed = true;
      }
    }
    if (changed) updates.emplace_back(select->ColumnText(0), definition.dump());
  }
  for (const auto& [id, definition] : updates) {
    auto update = db.Prepare("UPDATE surveys SET definition = ?2 WHERE id = ?1");
    if (!update) return MakeError(update.error());
    update.value().BindText(1, id);
    update.value().BindText(2, definition);
    auto done = update.value().Step();
    if (!done) return MakeError(done.error());
  }
  return OkStatus();
}

Status CreateSchema(SqliteDatabase& db) {
  auto version = db.QueryText("PRAGMA user_version");
  if (!version) return MakeError(version.error());
  if (std::stoi(version->empty() ? "0" : *version) > kSchemaVersion) {
    return MakeError("the database was created by a newer version of deniable (schema " + *version + ")");
  }
  const int from = std::stoi(version->empty() ? "0" : *version);
  const bool from_schema_1 = from == 1;
  DENIABLE_TRY(db.Exec(std::string("BEGIN IMMEDIATE;") + kSchema + (from_schema_1 ? kSealExistingInvitationReports : "")));
  Status migrated = from >= 1 && from < 5 ? DeclareOneChainForStoredModels(db) : OkStatus();
  if (migrated) migrated = db.Exec("PRAGMA user_version=" + std::to_string(kSchemaVersion) + ";COMMIT;");
  if (!migrated) {
    (void)db.Exec("ROLLBACK");
    return migrated;
  }
  return db.Exec("PRAGMA wal_checkpoint(TRUNCATE)");
}

// The database and its -wal and -shm files are the owner's alone (SQLite
// gives the -wal and -shm files the database file's mode).
Status CreatePrivateFile(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
  if (fd < 0) return MakeError("cannot create " + path + ": " + std::strerror(errno));
  ::close(fd);
  for (const std::string& file : {path, path + "-wal", path + "-shm"}) {
    struct stat info {};
    if (::stat(file.c_str(), &info) == 0 && (info.st_mode & 077) != 0) ::chmod(file.c_str(), 0600);
  }
  return OkStatus();
}

// A 63-bit random row id: invitation reports are stored in no particular order.
long long RandomRowId() {
  OsRandom random;
  return static_cast<long long>(random.NextU64() >> 1);
}

}  // namespace

Result<std::unique_ptr<Storage>> Storage::Open(const std::string& path) {
  if (auto status = CreatePrivateFile(path); !status) return MakeError(status.error());
  auto db = SqliteDatabase::Open(path);
  if (!db) return MakeError(db.error());
  if (auto status = ConfigureDurability(db.value()); !status) return MakeError(path + ": " + status.error());
  if (auto status = CreateSchema(db.value()); !status) return MakeError(path + ": " + status.error());
  struct stat info {};
  if (::stat(path.c_str(), &info) != 0) return MakeError("cannot read " + path + ": " + std::strerror(errno));
  std::unique_ptr<Storage> storage(new Storage(std::move(db).value(), path, {info.st_dev, info.st_ino}));
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
      {&insert_sealed_report_, "INSERT INTO sealed_reports (id, survey_id, body) VALUES (?1, ?2, ?3)"},
      {&use_invitation_, "UPDATE invitations SET used = 1 WHERE survey_id = ?1 AND code_hash = ?2 AND used = 0"},
      {&return_invitation_, "UPDATE invitations SET used = 0 WHERE survey_id = ?1 AND code_hash = ?2 AND used = 1"},
      {&insert_invitation_, "INSERT INTO invitations (survey_id, code_hash, used) VALUES (?1, ?2, 0)"},
      {&save_ledger_,
       "INSERT INTO release_ledgers (survey_id, question_id, ledger) VALUES (?1, ?2, ?3) "
       "ON CONFLICT (survey_id, question_id) DO UPDATE SET ledger = excluded.ledger"},
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

Status Storage::FileIntactLocked() const {
  struct stat info {};
  if (::stat(path_.c_str(), &info) != 0 || info.st_dev != identity_.device || info.st_ino != identity_.inode) {
    return MakeError("the database file " + path_ +
                     " was removed or replaced while the server was running: nothing is written until the server is "
                     "restarted on its data directory");
  }
  return OkStatus();
}

Status Storage::InTransaction(const std::function<Status()>& work) {
  DENIABLE_TRY(FileIntactLocked());
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

Result<std::vector<StoredStatus>> Storage::LoadStatuses() {
  std::lock_guard<std::mutex> lock(mutex_);
  auto statement = db_.Prepare("SELECT survey_id, closed, ifnull(closes_at, '') FROM survey_status");
  if (!statement) return MakeError(statement.error());
  std::vector<StoredStatus> statuses;
  for (;;) {
    auto row = statement.value().Step();
    if (!row) return MakeError(row.error());
    if (!*row) break;
    statuses.push_back({statement->ColumnText(0), statement->ColumnText(1) == "1", statement->ColumnText(2)});
  }
  return statuses;
}

Status Storage::SaveStatus(const StoredStatus& status) {
  std::lock_guard<std::mutex> lock(mutex_);
  DENIABLE_TRY(FileIntactLocked());
  auto statement = db_.Prepare(
      "INSERT INTO survey_status (survey_id, closed, closes_at) VALUES (?1, ?2, nullif(?3, '')) "
      "ON CONFLICT (survey_id) DO UPDATE SET closed = excluded.closed, closes_at = excluded.closes_at");
  if (!statement) return MakeError(statement.error());
  statement.value().BindText(1, status.survey_id);
  statement.value().BindInt(2, status.closed ? 1 : 0);
  statement.value().BindText(3, status.closes_at);
  auto done = statement.value().Step();
  if (!done) return MakeError(done.error());
  return OkStatus();
}

Result<bool> Storage::InvitationUnused(const std::string& survey_id, const std::string& code_hash) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto statement = db_.Prepare("SELECT 1 FROM invitations WHERE survey_id = ?1 AND code_hash = ?2 AND used = 0");
  if (!statement) return MakeError(statement.error());
  statement.value().BindText(1, survey_id);
  statement.value().BindText(2, code_hash);
  auto row = statement.value().Step();
  if (!row) return MakeError(row.error());
  return *row;
}

Result<Storage::InvitationCounts> Storage::CountInvitations(const std::string& survey_id) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto statement = db_.Prepare("SELECT COUNT(*), COALESCE(SUM(used), 0) FROM invitations WHERE survey_id = ?1");
  if (!statement) return MakeError(statement.error());
  statement.value().BindText(1, survey_id);
  auto row = statement.value().Step();
  if (!row) return MakeError(row.error());
  if (!*row) return InvitationCounts{};
  return InvitationCounts{statement.value().ColumnInt(0), statement.value().ColumnInt(1)};
}

Result<bool> Storage::WasDeleted(const std::string& survey_id) {
  std::lock_guard<std::mutex> lock(mutex_);
  return WasDeletedLocked(survey_id);
}

Result<bool> Storage::WasDeletedLocked(const std::string& survey_id) {
  auto statement = db_.Prepare("SELECT 1 FROM deleted_surveys WHERE survey_id = ?1");
  if (!statement) return MakeError(statement.error());
  statement.value().BindText(1, survey_id);
  auto row = statement.value().Step();
  if (!row) return MakeError(row.error());
  return *row;
}

Result<bool> Storage::IsClosedLocked(const std::string& survey_id) {
  auto statement = db_.Prepare("SELECT closed, ifnull(closes_at, '') FROM survey_status WHERE survey_id = ?1");
  if (!statement) return MakeError(statement.error());
  statement.value().BindText(1, survey_id);
  auto row = statement.value().Step();
  if (!row) return MakeError(row.error());
  if (!*row) return false;
  if (statement->ColumnText(0) == "1") return true;
  const std::string closes_at = statement->ColumnText(1);
  if (closes_at.empty()) return false;
  const auto closes = ParseRfc3339(closes_at);
  return !closes || NowSeconds() >= *closes;  // as SurveyEntry::ClosedReason: unreadable means closed
}

Result<std::optional<std::int64_t>> Storage::DeleteSurvey(const std::string& survey_id) {
  std::lock_guard<std::mutex> lock(mutex_);
  // Concurrent deletions: the first deletes, the others find it deleted
  // (they inserted its id again and failed on the key: a 500 before).
  auto already = WasDeletedLocked(survey_id);
  if (!already) return MakeError(already.error());
  if (*already) return std::optional<std::int64_t>();
  // Runs one statement on the survey's id: the rows it changed.
  auto run = [&](const char* sql) -> Result<std::int64_t> {
    auto statement = db_.Prepare(sql);
    if (!statement) return MakeError(statement.error());
    statement.value().BindText(1, survey_id);
    auto done = statement.value().Step();
    if (!done) return MakeError(done.error());
    return db_.Changes();
  };
  std::int64_t reports = 0;
  DENIABLE_TRY(InTransaction([&]() -> Status {
    reports = 0;
    for (const char* sql : {"DELETE FROM reports WHERE survey_id = ?1", "DELETE FROM sealed_reports WHERE survey_id = ?1"}) {
      auto deleted = run(sql);
      if (!deleted) return MakeError(deleted.error());
      reports += *deleted;
    }
    for (const char* sql : {"DELETE FROM invitations WHERE survey_id = ?1", "DELETE FROM release_ledgers WHERE survey_id = ?1",
                            "DELETE FROM survey_status WHERE survey_id = ?1", "DELETE FROM surveys WHERE id = ?1",
                            "INSERT INTO deleted_surveys (survey_id, deleted_at) "
                            "VALUES (?1, strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))"}) {
      if (auto done = run(sql); !done) return MakeError(done.error());
    }
    return OkStatus();
  }));
  // secure_delete zeroed the freed pages; emptying the log leaves no copy of
  // the deleted rows there either. The deletion is committed whatever happens
  // here: a log that cannot be emptied now (a reader holds it) is emptied by
  // the next commit's checkpoint, and the survey is gone all the same.
  if (auto emptied = TruncateLog(); !emptied) {
    std::cerr << "warning: survey " << survey_id << " deleted, but " << emptied.error() << std::endl;
  }
  return std::optional<std::int64_t>(reports);
}

Result<std::vector<StoredLedger>> Storage::LoadLedgers() {
  std::lock_guard<std::mutex> lock(mutex_);
  auto statement = db_.Prepare("SELECT survey_id, question_id, ledger FROM release_ledgers ORDER BY survey_id, question_id");
  if (!statement) return MakeError(statement.error());
  std::vector<StoredLedger> ledgers;
  for (;;) {
    auto row = statement.value().Step();
    if (!row) return MakeError(row.error());
    if (!*row) break;
    ledgers.push_back({statement->ColumnText(0), statement->ColumnText(1), statement->ColumnText(2)});
  }
  return ledgers;
}

Status Storage::SaveLedger(const std::string& survey_id, const std::string& question_id, const std::string& ledger) {
  std::lock_guard<std::mutex> lock(mutex_);
  // A release made as its survey was being deleted leaves nothing behind (DeleteSurvey holds this lock too).
  auto deleted = WasDeletedLocked(survey_id);
  if (!deleted) return MakeError(deleted.error());
  if (*deleted) return MakeError("survey \"" + survey_id + "\" was deleted");
  DENIABLE_TRY(FileIntactLocked());
  save_ledger_.Reset();
  save_ledger_.BindText(1, survey_id);
  save_ledger_.BindText(2, question_id);
  save_ledger_.BindText(3, ledger);
  auto done = save_ledger_.Step();  // autocommit: one durable transaction (synchronous=FULL)
  if (!done) return MakeError(done.error());
  return OkStatus();
}

Status Storage::ForEachReport(const std::function<void(const std::string&, const std::string&)>& visit) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto statement = db_.Prepare(
      "SELECT survey_id, body FROM reports UNION ALL SELECT survey_id, body FROM sealed_reports");
  if (!statement) return MakeError(statement.error());
  for (;;) {
    auto row = statement.value().Step();
    if (!row) return MakeError(row.error());
    if (!*row) return OkStatus();
    visit(statement->ColumnText(0), statement->ColumnText(1));
  }
}

Status Storage::ForEachReportOf(const std::string& survey_id, const std::function<void(const std::string&)>& visit,
                                const std::function<bool()>& cancelled, int chunk) {
  // Each table by its integer key: rowid for reports, the random id for sealed ones.
  for (const char* sql : {"SELECT rowid, body FROM reports WHERE survey_id = ?1 AND rowid > ?2 ORDER BY rowid LIMIT ?3",
                          "SELECT id, body FROM sealed_reports WHERE survey_id = ?1 AND id > ?2 ORDER BY id LIMIT ?3"}) {
    long long after = std::numeric_limits<long long>::min();
    for (;;) {
      if (cancelled && cancelled()) return MakeError("cancelled", ErrorCode::kCancelled);
      std::vector<std::string> bodies;
      {
        std::lock_guard<std::mutex> lock(mutex_);
        auto prepared = db_.Prepare(sql);
        if (!prepared) return MakeError(prepared.error());
        SqliteStatement statement = std::move(prepared).value();
        statement.BindText(1, survey_id);
        statement.BindInt(2, after);
        statement.BindInt(3, chunk);
        for (;;) {
          auto row = statement.Step();
          if (!row) return MakeError(row.error());
          if (!*row) break;
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

Result<bool> Storage::InsertSurvey(const std::string& id, int version, const std::string& definition) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (auto intact = FileIntactLocked(); !intact) return MakeError(intact.error());
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

Status Storage::StoreOpenRecord(const ReportRecord& record) {
  insert_report_.Reset();
  insert_report_.BindText(1, record.survey_id);
  insert_report_.BindText(2, record.body);
  auto done = insert_report_.Step();
  return done ? OkStatus() : MakeError(done.error());
}

Result<bool> Storage::SpendInvitation(const ReportRecord& record, SqliteStatement& statement) {
  statement.Reset();
  statement.BindText(1, record.survey_id);
  statement.BindText(2, *record.invitation_code_hash);
  auto done = statement.Step();
  if (!done) return MakeError(done.error());
  return db_.Changes() == 1;
}

Status Storage::StoreSealedRecord(const ReportRecord& record) {
  for (int attempt = 0;; ++attempt) {
    insert_sealed_report_.Reset();
    insert_sealed_report_.BindInt(1, RandomRowId());
    insert_sealed_report_.BindText(2, record.survey_id);
    insert_sealed_report_.BindText(3, record.body);
    auto done = insert_sealed_report_.Step();
    if (done) return OkStatus();
    if (!db_.LastErrorWasConstraint() || attempt == 3) return MakeError(done.error());  // 2^-63 collisions
  }
}

Status Storage::TruncateLog() {
  // The pragma succeeds even when it could not finish (another reader holds
  // the log): its first column says so, and then the log is not empty.
  auto busy = db_.QueryText("PRAGMA wal_checkpoint(TRUNCATE)");
  if (!busy) return MakeError(busy.error());
  if (*busy != "0") return MakeError("the write-ahead log could not be emptied: another process is reading the database");
  return OkStatus();
}

Result<std::vector<RecordOutcome>> Storage::CommitReports(const std::vector<const ReportRecord*>& records) {
  std::lock_guard<std::mutex> lock(mutex_);
  std::vector<RecordOutcome> outcomes(records.size(), RecordOutcome::kStored);
  if (auto intact = FileIntactLocked(); !intact) {
    std::cerr << "error: " << intact.error() << std::endl;
    return std::vector<RecordOutcome>(records.size(), RecordOutcome::kUnavailable);
  }
  // A report validated before its survey was deleted or closed (DeleteSurvey
  // and SaveStatus hold the same lock) is not stored: the deletion promised
  // every report gone, the close's 200 promised no report after it.
  std::map<std::string, RecordOutcome> refusal;  // per survey: kStored when it takes reports
  for (std::size_t i = 0; i < records.size(); ++i) {
    const std::string& id = records[i]->survey_id;
    if (refusal.count(id) == 0) {
      auto deleted = WasDeletedLocked(id);
      if (!deleted) return MakeError(deleted.error());
      auto closed = *deleted ? Result<bool>(false) : IsClosedLocked(id);
      if (!closed) return MakeError(closed.error());
      refusal[id] = *deleted ? RecordOutcome::kSurveyDeleted : (*closed ? RecordOutcome::kSurveyClosed : RecordOutcome::kStored);
    }
    outcomes[i] = refusal[id];
  }
  std::vector<const ReportRecord*> open;
  std::vector<std::size_t> invited;
  for (std::size_t i = 0; i < records.size(); ++i) {
    if (outcomes[i] != RecordOutcome::kStored) continue;
    if (records[i]->invitation_code_hash) {
      invited.push_back(i);
    } else {
      open.push_back(records[i]);
    }
  }
  if (!open.empty()) {
    DENIABLE_TRY(InTransaction([&]() -> Status {
      for (const ReportRecord* record : open) DENIABLE_TRY(StoreOpenRecord(*record));
      return OkStatus();
    }));
  }
  if (!invited.empty()) {
    // A failure here leaves the open records committed: report it per record.
    auto status = CommitInvitedRecords(records, invited, outcomes);
    if (!status) {
      if (open.empty()) return MakeError(status.error());
      for (std::size_t i : invited) outcomes[i] = RecordOutcome::kFailed;
    }
  }
  return outcomes;
}

// Unlinkable invitations. Marking a code used and storing its report in one
// transaction would put both in one commit of the write-ahead log, where
// anyone who copies the files can pair them (and a report's rowid would be
// its arrival order). So: the log is emptied into the database first; the
// codes are spent in one commit; the log is emptied again; the reports are
// stored, shuffled, at random row ids, in a second commit; the log is emptied
// a third time before anyone is answered. The log never holds a spent code
// and a new report together, and the database keeps no order or time of
// either. The price: a crash between the two commits leaves those codes spent
// with no report (the respondents were never answered 201).
Status Storage::CommitInvitedRecords(const std::vector<const ReportRecord*>& records,
                                     const std::vector<std::size_t>& invited, std::vector<RecordOutcome>& outcomes) {
  DENIABLE_TRY(TruncateLog());
  std::vector<std::size_t> spent;
  DENIABLE_TRY(InTransaction([&]() -> Status {
    for (std::size_t i : invited) {
      auto accepted = SpendInvitation(*records[i], use_invitation_);
      if (!accepted) return MakeError(accepted.error());
      if (*accepted) {
        spent.push_back(i);
      } else {
        outcomes[i] = RecordOutcome::kInvitationRejected;
      }
    }
    return OkStatus();
  }));
  if (spent.empty()) return OkStatus();
  std::vector<std::size_t> order(spent);
  OsRandom random;
  for (std::size_t i = order.size(); i > 1; --i) std::swap(order[i - 1], order[UniformBelow(random, i)]);
  // Not storing the reports while the spent codes are still in the log.
  Status stored = TruncateLog();
  if (stored) {
    stored = InTransaction([&]() -> Status {
      for (std::size_t i : order) DENIABLE_TRY(StoreSealedRecord(*records[i]));
      return OkStatus();
    });
  }
  if (!stored) {
    // Give the codes back so the respondents can send again.
    (void)InTransaction([&]() -> Status {
      for (std::size_t i : spent) (void)SpendInvitation(*records[i], return_invitation_);
      return OkStatus();
    });
    return stored;
  }
  // The reports are stored: a log that cannot be emptied now is emptied by
  // the next batch (or SQLite's own checkpoint); it is no reason to refuse them.
  if (auto emptied = TruncateLog(); !emptied) {
    std::cerr << "warning: invitation reports stored, but " << emptied.error() << std::endl;
  }
  return OkStatus();
}

}  // namespace deniable::server
