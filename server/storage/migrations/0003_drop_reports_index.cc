// Schema 3 (3c52a14): no index on reports.survey_id. Reports are read at
// start in one pass over the table, and an index leaf written with every
// commit cost 10% of ingest throughput.
#include "server/storage/sqlite_migrations.h"

namespace deniable::server {

const SqliteMigration kSqliteMigration0003 = {3, "no index on reports", R"sql(
DROP INDEX IF EXISTS reports_by_survey;
)sql", nullptr};

}  // namespace deniable::server
