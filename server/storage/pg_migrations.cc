#include "server/storage/pg_migrations.h"

#include <string>

#include "server/storage/pg_transaction.h"

namespace deniable::server {

const std::vector<PgMigration>& PgMigrations() {
  static const std::vector<PgMigration> migrations = {kPgMigration0001, kPgMigration0002};
  return migrations;
}

Status MigratePostgres(PgPool& pool, const std::vector<PgMigration>& migrations) {
  const int latest = migrations.empty() ? 0 : migrations.back().version;
  return RunTx(pool, PgIsolation::kReadCommitted, [&](PgConnection& db) -> Status {
    // Held until COMMIT: a second node waits here, then reads the version the first wrote.
    DENIABLE_TRY(db.Exec("SELECT pg_advisory_xact_lock($1)", {std::to_string(kPgMigrationLock)}));
    DENIABLE_TRY(db.ExecScript(
        "CREATE TABLE IF NOT EXISTS schema_version ("
        "  singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),"
        "  version integer NOT NULL);"
        "CREATE TABLE IF NOT EXISTS schema_history ("
        "  version integer PRIMARY KEY,"
        "  name text NOT NULL,"
        "  applied_at timestamptz NOT NULL DEFAULT now());"));
    DENIABLE_ASSIGN_OR_RETURN(PgResult row, db.Exec("SELECT version FROM schema_version"));
    const int from = row.Rows() == 0 ? 0 : static_cast<int>(row.Int(0, 0));
    if (from > latest) {
      return MakeError("the database " + RedactPgUrl(pool.url()) + " was created by a newer version of deniable (schema " +
                           std::to_string(from) + "; this one knows schemas up to " + std::to_string(latest) +
                           "): run that version or a later one",
                       ErrorCode::kConflict);
    }
    for (const PgMigration& migration : migrations) {
      if (migration.version <= from) continue;
      if (auto applied = db.ExecScript(migration.sql); !applied) {
        return InContext("migration " + std::to_string(migration.version) + " (" + migration.name + ")",
                         applied.failure());
      }
      DENIABLE_TRY(db.Exec("INSERT INTO schema_history (version, name) VALUES ($1, $2)",
                           {std::to_string(migration.version), std::string(migration.name)}));
    }
    if (latest > from) {
      DENIABLE_TRY(db.Exec("INSERT INTO schema_version (version) VALUES ($1) "
                           "ON CONFLICT (singleton) DO UPDATE SET version = excluded.version",
                           {std::to_string(latest)}));
    }
    return OkStatus();
  });
}

}  // namespace deniable::server
