// Schema 1 (1d972fb, the first server): surveys, their reports in arrival
// order with an index by survey, and invitation codes by their hash.
#include "server/storage/sqlite_migrations.h"

namespace deniable::server {

const SqliteMigration kSqliteMigration0001 = {1, "initial", R"sql(
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
)sql", nullptr};

}  // namespace deniable::server
