// Schema 8: corrections of a running survey's wording (issue 33; core
// survey/text_correction.h). The survey's definition is updated in place to
// the corrected words; each correction is kept here with its time and its
// changes ({"path", "where", "before", "after"} as JSON), in the order made,
// for the dashboard. Deleted with the survey. IF NOT EXISTS, as migrations 5
// to 7: applying it again to a database that has the table changes nothing.
#include "server/storage/sqlite_migrations.h"

namespace deniable::server {

const SqliteMigration kSqliteMigration0008 = {8, "survey corrections", R"sql(
CREATE TABLE IF NOT EXISTS survey_corrections (
  id INTEGER PRIMARY KEY,
  survey_id TEXT NOT NULL,
  made_at TEXT NOT NULL,
  changes TEXT NOT NULL
);
)sql", nullptr};

}  // namespace deniable::server
