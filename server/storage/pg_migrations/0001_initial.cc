// Schema 1: what SQLite's schema 7 holds, in PostgreSQL's types.
//
// surveys          canonical JSON definitions, creation time
// survey_keys      each invitation survey's secret key (bytea, 32 bytes)
// reports          every survey's reports; the bigserial id follows arrival
//                  (as SQLite's rowid) and pairs nothing. Unlike SQLite
//                  (schema 3 dropped it for ingest speed), an index by
//                  (survey_id, id): ForEachReportOf reads one survey in
//                  chunks by id, which without it scans every report each chunk.
// invitations      SHA-256 of each code, used, and the blinded element's hash
// spent_tokens     SHA-256 of each redeemed token's input, per survey
// release_ledgers  one ledger per question answered in confidence
// survey_status    closed, and the closing time (timestamptz, compared with
//                  the database's now() inside each commit)
// deleted_surveys  ids never reused
// settings         the admin token (name 'admin_token'), shared by every node
// catalog_version  one row: moved (and NOTIFY deniable_catalog sent) by each
//                  transaction that changes the catalog (storage.h, catalog sync)
// survey_aggregates each survey's aggregate in shards (storage.h: a node
//                  writes the shard it drew at start, in [0, 8)), as
//                  SQLite's schema 7. Here from the first schema: no
//                  PostgreSQL database was released before it, so none has
//                  reports without shards to build.
#include "server/storage/pg_migrations.h"

namespace deniable::server {

const PgMigration kPgMigration0001 = {1, "initial (SQLite schema 7)", R"sql(
CREATE TABLE surveys (
  id text PRIMARY KEY,
  version integer NOT NULL,
  definition text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE survey_keys (
  survey_id text PRIMARY KEY,
  secret bytea NOT NULL
);
CREATE TABLE reports (
  id bigserial PRIMARY KEY,
  survey_id text NOT NULL,
  body text NOT NULL
);
CREATE INDEX reports_by_survey ON reports (survey_id, id);
CREATE TABLE invitations (
  survey_id text NOT NULL,
  code_hash text NOT NULL,
  used smallint NOT NULL DEFAULT 0,
  blinded_hash text,
  PRIMARY KEY (survey_id, code_hash)
);
CREATE TABLE spent_tokens (
  survey_id text NOT NULL,
  token_hash text NOT NULL,
  PRIMARY KEY (survey_id, token_hash)
);
CREATE TABLE release_ledgers (
  survey_id text NOT NULL,
  question_id text NOT NULL,
  ledger text NOT NULL,
  PRIMARY KEY (survey_id, question_id)
);
CREATE TABLE survey_status (
  survey_id text PRIMARY KEY,
  closed boolean NOT NULL DEFAULT false,
  closes_at timestamptz
);
CREATE TABLE deleted_surveys (
  survey_id text PRIMARY KEY,
  deleted_at timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE survey_aggregates (
  survey_id text NOT NULL,
  shard integer NOT NULL,
  version bigint NOT NULL,
  blob text NOT NULL,
  PRIMARY KEY (survey_id, shard)
);
CREATE TABLE catalog_version (
  singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
  version bigint NOT NULL
);
INSERT INTO catalog_version (version) VALUES (0);
CREATE TABLE settings (
  name text PRIMARY KEY,
  value text NOT NULL
);
)sql"};

}  // namespace deniable::server
