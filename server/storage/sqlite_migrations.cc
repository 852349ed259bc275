#include "server/storage/sqlite_migrations.h"

#include <string>

namespace deniable::server {

const std::vector<SqliteMigration>& SqliteMigrations() {
  static const std::vector<SqliteMigration> migrations = {kSqliteMigration0001, kSqliteMigration0002,
                                                          kSqliteMigration0003, kSqliteMigration0004,
                                                          kSqliteMigration0005, kSqliteMigration0006,
                                                          kSqliteMigration0007, kSqliteMigration0008};
  return migrations;
}

int LatestSqliteSchema() { return static_cast<int>(SqliteMigrations().size()); }

Result<int> SqliteSchemaVersion(SqliteDatabase& db) {
  DENIABLE_ASSIGN_OR_RETURN(const std::string version, db.QueryText("PRAGMA user_version"));
  return version.empty() ? 0 : std::stoi(version);
}

namespace {

Status Apply(SqliteDatabase& db, int from, int to) {
  for (const SqliteMigration& migration : SqliteMigrations()) {
    if (migration.version <= from || migration.version > to) continue;
    DENIABLE_TRY(db.Exec(migration.sql));
    if (migration.rewrite) DENIABLE_TRY(migration.rewrite(db));
  }
  return db.Exec("PRAGMA user_version=" + std::to_string(to));
}

}  // namespace

Status MigrateSqlite(SqliteDatabase& db, std::optional<int> target) {
  DENIABLE_ASSIGN_OR_RETURN(const int from, SqliteSchemaVersion(db));
  const int latest = LatestSqliteSchema();
  if (from > latest) {
    return MakeError("the database was created by a newer version of deniable (schema " + std::to_string(from) +
                         "; this one knows schemas up to " + std::to_string(latest) + "): run that version or a later one",
                     ErrorCode::kConflict);
  }
  const int to = target.value_or(latest);
  if (to <= from) return OkStatus();
  DENIABLE_TRY(db.Exec("BEGIN IMMEDIATE"));
  Status applied = Apply(db, from, to);
  if (applied) applied = db.Exec("COMMIT");
  if (!applied) (void)db.Exec("ROLLBACK");  // may fail if SQLite already rolled back
  return applied;
}

}  // namespace deniable::server
