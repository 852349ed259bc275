// Schema 2: corrections of a running survey's wording, as SQLite's schema 8
// (the survey's definition is updated in place; each correction kept with
// its time and changes, in the order made by id).
#include "server/storage/pg_migrations.h"

namespace deniable::server {

const PgMigration kPgMigration0002 = {2, "survey corrections (SQLite schema 8)", R"sql(
CREATE TABLE survey_corrections (
  id bigserial PRIMARY KEY,
  survey_id text NOT NULL,
  made_at timestamptz NOT NULL DEFAULT now(),
  changes text NOT NULL
);
)sql"};

}  // namespace deniable::server
