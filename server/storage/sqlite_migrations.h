// The SQLite schema's history as numbered migrations (server/storage/migrations/,
// one file each, 0001 first). A database records the last one applied in
// PRAGMA user_version (0: an empty file); opening it applies the ones after,
// in order, in ONE transaction (a crash mid-upgrade leaves the old schema),
// and refuses a database whose version is newer than the last one known here.
// A migration is never edited once released: a change is a new migration.
#pragma once

#include <optional>
#include <vector>

#include "core/common/result.h"
#include "server/storage/sqlite_db.h"

namespace deniable::server {

struct SqliteMigration {
  int version;       // user_version once applied
  const char* name;  // what it does, for people
  const char* sql;   // statements, run first
  // A rewrite SQL cannot express (e.g. of JSON definitions), run after `sql`; null for none.
  Status (*rewrite)(SqliteDatabase& db);
};

// One file each in server/storage/migrations/ (0001_initial.cc, ...).
extern const SqliteMigration kSqliteMigration0001;
extern const SqliteMigration kSqliteMigration0002;
extern const SqliteMigration kSqliteMigration0003;
extern const SqliteMigration kSqliteMigration0004;
extern const SqliteMigration kSqliteMigration0005;
extern const SqliteMigration kSqliteMigration0006;
extern const SqliteMigration kSqliteMigration0007;
extern const SqliteMigration kSqliteMigration0008;

// Every migration, in order (migrations()[i].version == i + 1).
const std::vector<SqliteMigration>& SqliteMigrations();
int LatestSqliteSchema();

// The database's user_version.
Result<int> SqliteSchemaVersion(SqliteDatabase& db);

// Applies the migrations after the database's version up to `target` (the
// latest by default) in one transaction. kConflict for a database newer than
// this binary knows.
Status MigrateSqlite(SqliteDatabase& db, std::optional<int> target = std::nullopt);

}  // namespace deniable::server
