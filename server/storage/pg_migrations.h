// The PostgreSQL schema's history as numbered migrations
// (server/storage/pg_migrations/, one file each, 0001 first). The database
// records the last one applied in schema_version (one row) and each one
// applied in schema_history. Opening a database applies the ones after its
// version, in order, in ONE transaction (a crash mid-upgrade leaves the old
// schema) that first takes a transaction-scoped advisory lock: nodes
// starting together on one database wait for each other, and the first
// migrates while the others find the schema current. A database newer than
// this binary knows is refused, naming both versions. A migration is never
// edited once released: a change is a new migration.
#pragma once

#include <vector>

#include "core/common/result.h"
#include "server/storage/pg_pool.h"

namespace deniable::server {

struct PgMigration {
  int version;       // schema_version once applied
  const char* name;  // what it does, for people
  const char* sql;   // statements
};

extern const PgMigration kPgMigration0001;
extern const PgMigration kPgMigration0002;

// Every migration, in order (PgMigrations()[i].version == i + 1).
const std::vector<PgMigration>& PgMigrations();

// The advisory lock's key (pg_advisory_xact_lock): "deniable" in ASCII.
inline constexpr long long kPgMigrationLock = 0x64656e6961626c65LL;

// Applies `migrations` after the database's version (tests pass their own
// list). kConflict for a database newer than the last of them.
Status MigratePostgres(PgPool& pool, const std::vector<PgMigration>& migrations = PgMigrations());

}  // namespace deniable::server
