// Schema 6 (issue 30): invitations are exchanged for blind tokens
// (core/oprf/voprf.h). A code is spent when its token is issued, so a report
// no longer carries it: the report and its token's hash are stored in one
// commit, and neither names the invitee.
//
// survey_keys    the secret key of each invitation survey (32 bytes; the
//                surveys created before get theirs at start-up, created once:
//                Storage::LoadOrCreateSurveyKey)
// invitations    gain blinded_hash: SHA-256 of the blinded element a code
//                was spent for (NULL for codes unused, or used by a report
//                before schema 6: such a code stays used, and no token is
//                issued for it), so a retried issuance is answered again
// spent_tokens   SHA-256 of each redeemed token's input, per survey
// sealed_reports goes: invitation reports are stored in `reports` like any
//                other; the sealed ones move there in a random order (their
//                random ids said nothing, and neither does the new order).
#include <string>

#include "server/storage/sqlite_migrations.h"

namespace deniable::server {
namespace {

Result<bool> Exists(SqliteDatabase& db, const std::string& sql) {
  DENIABLE_ASSIGN_OR_RETURN(const std::string count, db.QueryText(sql));
  return count != "0";
}

// What SQL cannot say with IF NOT EXISTS: a column added once, and the sealed
// table moved only where there is one (a file whose user_version was set
// back by hand runs this again).
Status AddBlindedHashAndUnseal(SqliteDatabase& db) {
  DENIABLE_ASSIGN_OR_RETURN(const bool has_column,
                            Exists(db, "SELECT COUNT(*) FROM pragma_table_info('invitations') WHERE name = 'blinded_hash'"));
  if (!has_column) DENIABLE_TRY(db.Exec("ALTER TABLE invitations ADD COLUMN blinded_hash TEXT"));
  DENIABLE_ASSIGN_OR_RETURN(const bool sealed,
                            Exists(db, "SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = 'sealed_reports'"));
  if (!sealed) return OkStatus();
  return db.Exec(
      "INSERT INTO reports (survey_id, body) SELECT survey_id, body FROM sealed_reports ORDER BY random();"
      "DROP TABLE sealed_reports;");
}

}  // namespace

const SqliteMigration kSqliteMigration0006 = {6, "blind tokens: survey keys, spent tokens, no sealed reports", R"sql(
CREATE TABLE IF NOT EXISTS survey_keys (
  survey_id TEXT PRIMARY KEY,
  secret BLOB NOT NULL
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS spent_tokens (
  survey_id TEXT NOT NULL,
  token_hash TEXT NOT NULL,
  PRIMARY KEY (survey_id, token_hash)
) WITHOUT ROWID;
)sql", AddBlindedHashAndUnseal};

}  // namespace deniable::server
