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
#include "server/storage/sqlite_migrations.h"

namespace deniable::server {

const SqliteMigration kSqliteMigration0006 = {6, "blind tokens: survey keys, spent tokens, no sealed reports", R"sql(
CREATE TABLE IF NOT EXISTS survey_keys (
  survey_id TEXT PRIMARY KEY,
  secret BLOB NOT NULL
) WITHOUT ROWID;
ALTER TABLE invitations ADD COLUMN blinded_hash TEXT;
CREATE TABLE IF NOT EXISTS spent_tokens (
  survey_id TEXT NOT NULL,
  token_hash TEXT NOT NULL,
  PRIMARY KEY (survey_id, token_hash)
) WITHOUT ROWID;
INSERT INTO reports (survey_id, body) SELECT survey_id, body FROM sealed_reports ORDER BY random();
DROP TABLE sealed_reports;
)sql", nullptr};

}  // namespace deniable::server
