// Schema 4 (cbe6b00): the release ledger of each question answered in
// confidence (core/central/release_ledger.h), replaced whole by each release.
// The released schema 4 later gained survey_status and deleted_surveys
// (579fe08) without a new version number: migration 5 creates them if absent.
#include "server/storage/sqlite_migrations.h"

namespace deniable::server {

const SqliteMigration kSqliteMigration0004 = {4, "release ledgers", R"sql(
CREATE TABLE IF NOT EXISTS release_ledgers (
  survey_id TEXT NOT NULL,
  question_id TEXT NOT NULL,
  ledger TEXT NOT NULL,
  PRIMARY KEY (survey_id, question_id)
) WITHOUT ROWID;
)sql", nullptr};

}  // namespace deniable::server
