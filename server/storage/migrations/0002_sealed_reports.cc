// Schema 2 (0ea1399): invitation surveys' reports are sealed, stored apart
// at random ids so that neither their order nor their row ids pair them
// with the codes spent. Schema 1 kept them in `reports` in arrival order:
// they move to sealed_reports in a random order.
#include "server/storage/sqlite_migrations.h"

namespace deniable::server {

const SqliteMigration kSqliteMigration0002 = {2, "sealed invitation reports", R"sql(
CREATE TABLE IF NOT EXISTS sealed_reports (
  id INTEGER PRIMARY KEY,
  survey_id TEXT NOT NULL,
  body TEXT NOT NULL
);
INSERT INTO sealed_reports (survey_id, body)
  SELECT survey_id, body FROM reports WHERE survey_id IN (SELECT DISTINCT survey_id FROM invitations) ORDER BY random();
DELETE FROM reports WHERE survey_id IN (SELECT DISTINCT survey_id FROM invitations);
)sql", nullptr};

}  // namespace deniable::server
