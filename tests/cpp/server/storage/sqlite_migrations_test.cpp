#include "server/storage/sqlite_migrations.h"

#include <optional>
#include <string>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include "server/storage/sqlite_db.h"
#include "server/storage/sqlite_storage.h"
#include "storage/temp_dir.h"

namespace deniable::server {
namespace {

// The exact DDL of the storage before migrations were numbered (server/storage/storage.cc
// at 53c0aa3, schema 5): what every database on disk today was made with.
// Kept verbatim, not built from the migrations: it is what they must reproduce.
constexpr const char* kLegacySchema5 = R"sql(
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

const char* const kModel =
    R"({"id":"model","version":1,"questions":[{"id":"m","type":"linear_regression","target":"y","features":["x"]}]})";
const char* const kChained =
    R"({"id":"chained","version":1,"questions":[{"id":"m","type":"linear_regression","chains":8}]})";

SqliteDatabase OpenRaw(const std::string& path) {
  auto db = SqliteDatabase::Open(path);
  REQUIRE(db.ok());
  return std::move(db).value();
}

void Exec(SqliteDatabase& db, const std::string& sql) {
  const Status done = db.Exec(sql);
  REQUIRE_MESSAGE(done.ok(), (done.ok() ? "" : done.error()));
}

std::string Text(SqliteDatabase& db, const std::string& sql) {
  auto text = db.QueryText(sql);
  REQUIRE_MESSAGE(text.ok(), (text.ok() ? "" : text.error()));
  return *text;
}

// Every table and index with its DDL, by name (not where SQLite placed it).
std::string Schema(SqliteDatabase& db) {
  return Text(db, "SELECT group_concat(type || ' ' || name || ': ' || sql, char(10)) FROM "
                  "(SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY name)");
}

// The schema the migrations build up to `version` (the latest by default).
std::string FreshSchema(const TempDir& dir, std::optional<int> version = std::nullopt) {
  auto db = OpenRaw(dir.File("fresh" + std::to_string(version.value_or(0)) + ".sqlite3"));
  REQUIRE(MigrateSqlite(db, version).ok());
  return Schema(db);
}

// What a database of `version` holds: surveys (a model without "chains"
// before schema 5), an open survey's report, an invitation survey's codes
// and report (in `reports` at schema 1, sealed from 2 to 5, in `reports`
// again from 6), one code used by a report before tokens, a ledger (schema 4),
// a status and a deleted id (when the tables exist).
void Seed(SqliteDatabase& db, int version, bool status_tables) {
  Exec(db, "INSERT INTO surveys VALUES ('open', 1, '{\"id\":\"open\"}', '2026-11-22T00:00:00Z');"
           "INSERT INTO surveys VALUES ('invited', 1, '{\"id\":\"invited\"}', '2026-11-22T00:00:00Z');"
           "INSERT INTO surveys VALUES ('model', 1, '" + std::string(kModel) + "', '2026-11-22T00:00:00Z');"
           "INSERT INTO surveys VALUES ('chained', 1, '" + std::string(kChained) + "', '2026-11-22T00:00:00Z');"
           "INSERT INTO invitations (survey_id, code_hash, used) VALUES ('invited', 'h1', 1), ('invited', 'h2', 0);"
           "INSERT INTO reports VALUES ('open', 'o1');");
  Exec(db, version == 1 || version >= 6 ? "INSERT INTO reports VALUES ('invited', 'i1')"
                                        : "INSERT INTO sealed_reports VALUES (4242, 'invited', 'i1')");
  if (version >= 4) Exec(db, "INSERT INTO release_ledgers VALUES ('open', 'q', '{\"ledger\":1}')");
  if (status_tables) {
    Exec(db, "INSERT INTO survey_status VALUES ('open', 1, NULL);"
             "INSERT INTO deleted_surveys VALUES ('old', '2026-11-25T00:00:00Z')");
  }
}

// A database at `version` built by migrations 1..version, seeded, closed.
void BuildAt(const std::string& path, int version, bool status_tables) {
  auto db = OpenRaw(path);
  REQUIRE(MigrateSqlite(db, version).ok());
  // Schema 4 as released after 579fe08 had the status tables, with the DDL
  // migration 5 keeps verbatim (its SQL before the rewrite is only that DDL).
  if (status_tables && version == 4) Exec(db, kSqliteMigration0005.sql);
  REQUIRE(Text(db, "PRAGMA user_version") == std::to_string(version));
  Seed(db, version, status_tables);
}

std::vector<std::string> Bodies(Storage& storage, const std::string& survey) {
  std::vector<std::string> bodies;
  REQUIRE(storage.ForEachReportOf(survey, [&](const std::string& body) { bodies.push_back(body); }).ok());
  return bodies;
}

// Opens the database through SqliteStorage (which migrates it) and checks
// that everything seeded is there, as the latest schema keeps it.
void CheckMigrated(const TempDir& dir, const std::string& path, int version, bool status_tables) {
  {
    auto opened = SqliteStorage::Open(path);
    REQUIRE_MESSAGE(opened.ok(), (opened.ok() ? "" : opened.error()));
    Storage& storage = **opened;
    auto state = storage.LoadState();
    REQUIRE(state.ok());
    REQUIRE(state->surveys.size() == 4);
    CHECK(state->surveys[0].id == "chained");
    CHECK(state->surveys[0].definition == kChained);  // declares its chains: untouched
    CHECK(state->surveys[2].id == "model");
    const auto model = nlohmann::json::parse(state->surveys[2].definition);
    // A model stored before schema 5 trained one chain, and says so now.
    if (version < 5) {
      CHECK(model["questions"][0]["chains"] == 1);
    } else {
      CHECK(state->surveys[2].definition == kModel);
    }
    CHECK(Bodies(storage, "open") == std::vector<std::string>{"o1"});
    CHECK(Bodies(storage, "invited") == std::vector<std::string>{"i1"});
    CHECK(storage.CountInvitations("invited")->total == 2);
    CHECK(storage.CountInvitations("invited")->used == 1);
    CHECK(*storage.InvitationUnused("invited", "h2"));
    CHECK(state->ledgers.size() == (version >= 4 ? 1u : 0u));
    CHECK(state->statuses.size() == (status_tables ? 1u : 0u));
    CHECK(*storage.WasDeleted("old") == status_tables);
    // The code used by a report before tokens stays used; the unused one is exchanged for a token.
    CHECK(*storage.SpendInvitationForToken("invited", "h1", "b1") == IssueOutcome::kRejected);
    CHECK(*storage.SpendInvitationForToken("invited", "h2", "b2") == IssueOutcome::kSpent);
    // The survey has no key yet: it gets one at start-up, once.
    CHECK(storage.LoadOrCreateSurveyKey("invited", [] { return std::string(32, 'k'); }).value() == std::string(32, 'k'));
    // Schema 8: no correction yet, and a survey of any earlier schema can be corrected.
    CHECK(state->corrections.empty());
    auto corrected = storage.CorrectSurvey("open", "{\"id\":\"open\"}", "{\"id\":\"open\",\"title\":\"T\"}", "[]");
    CHECK_MESSAGE(corrected.ok(), (corrected.ok() ? "" : corrected.error()));
    CHECK(storage.LoadState()->corrections.size() == 1);
  }
  auto db = OpenRaw(path);
  CHECK(Text(db, "PRAGMA user_version") == std::to_string(LatestSqliteSchema()));
  // Invitation reports are in `reports` whatever the schema they were stored under; no sealed table is left.
  CHECK(Text(db, "SELECT COUNT(*) FROM reports WHERE survey_id = 'invited'") == "1");
  CHECK(Text(db, "SELECT COUNT(*) FROM sqlite_master WHERE name = 'sealed_reports'") == "0");
  CHECK(Schema(db) == FreshSchema(dir));
}

}  // namespace

TEST_CASE("SQLite migrations are numbered 1, 2, ... in order, and a new file gets them all") {
  const auto& migrations = SqliteMigrations();
  REQUIRE(migrations.size() == 8);
  for (std::size_t i = 0; i < migrations.size(); ++i) CHECK(migrations[i].version == static_cast<int>(i) + 1);
  TempDir dir;
  auto db = OpenRaw(dir.File("new.sqlite3"));
  REQUIRE(MigrateSqlite(db).ok());
  CHECK(Text(db, "PRAGMA user_version") == "8");
  CHECK(MigrateSqlite(db).ok());  // nothing left to apply
}

TEST_CASE("A database of every earlier schema migrates to the latest and keeps its data") {
  for (int version = 1; version <= LatestSqliteSchema(); ++version) {
    for (bool status_tables : {false, true}) {
      // The status tables exist from the late schema 4 on, and only there.
      if (status_tables != (version >= 5) && version != 4) continue;
      CAPTURE(version);
      CAPTURE(status_tables);
      TempDir dir;
      BuildAt(dir.File("old.sqlite3"), version, status_tables);
      CheckMigrated(dir, dir.File("old.sqlite3"), version, status_tables);
    }
  }
}

TEST_CASE("A database made by the storage before numbered migrations opens as the latest, unchanged") {
  TempDir dir;
  const std::string path = dir.File("today.sqlite3");
  {
    auto db = OpenRaw(path);
    Exec(db, std::string("BEGIN IMMEDIATE;") + kLegacySchema5 + "PRAGMA user_version=5;COMMIT;");
    Seed(db, 5, true);
    CHECK(Schema(db) == FreshSchema(dir, 5));  // the migrations rebuild exactly this schema
  }
  CheckMigrated(dir, path, 5, true);
}

TEST_CASE("A database from a newer deniable is refused with a clear error, and left as it was") {
  TempDir dir;
  const std::string path = dir.File("newer.sqlite3");
  {
    auto db = OpenRaw(path);
    REQUIRE(MigrateSqlite(db).ok());
    Exec(db, "CREATE TABLE future (x); PRAGMA user_version=9;");
  }
  auto opened = SqliteStorage::Open(path);
  REQUIRE_FALSE(opened.ok());
  CHECK(opened.error_code() == ErrorCode::kConflict);
  CHECK(opened.error() == path + ": the database was created by a newer version of deniable (schema 9; this one "
                                 "knows schemas up to 8): run that version or a later one");
  auto db = OpenRaw(path);
  CHECK(Text(db, "PRAGMA user_version") == "9");
}

TEST_CASE("Pending migrations are one transaction: one that fails leaves the database at its version") {
  TempDir dir;
  auto db = OpenRaw(dir.File("broken.sqlite3"));
  REQUIRE(MigrateSqlite(db, 2).ok());
  // An index with the name of migration 5's table: migrations 3 and 4 apply, 5 fails.
  Exec(db, "CREATE INDEX survey_status ON surveys (version)");
  const Status migrated = MigrateSqlite(db);
  REQUIRE_FALSE(migrated.ok());
  CHECK(migrated.error_code() == ErrorCode::kInternal);
  CHECK(Text(db, "PRAGMA user_version") == "2");
  CHECK(Text(db, "SELECT COUNT(*) FROM sqlite_master WHERE name = 'release_ledgers'") == "0");  // 4 was rolled back
  CHECK(Text(db, "SELECT COUNT(*) FROM sqlite_master WHERE name = 'reports_by_survey'") == "1");  // and 3
}

}  // namespace deniable::server
