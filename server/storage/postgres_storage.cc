#include "server/storage/postgres_storage.h"

#include <algorithm>
#include <map>
#include <random>
#include <set>
#include <utility>

#include "server/storage/pg_transaction.h"

namespace deniable::server {
namespace {

const char* const kHex = "0123456789abcdef";

std::string HexOf(const std::string& bytes) {
  std::string out;
  out.reserve(bytes.size() * 2);
  for (unsigned char c : bytes) {
    out += kHex[c >> 4];
    out += kHex[c & 15];
  }
  return out;
}

bool IsTrue(const std::string& text) { return text == "t"; }

// The id's advisory lock (hashed to 64 bits; a collision only serialises two ids).
Status LockKey(PgConnection& db, const std::string& key) {
  DENIABLE_TRY(db.Exec("SELECT pg_advisory_xact_lock(hashtextextended($1, 0))", {key}));
  return OkStatus();
}

// Locks the survey's row (when it exists) against deletion and closing
// (FOR SHARE: commits and issuances), or against commits (FOR UPDATE: deletion, status).
Status LockSurvey(PgConnection& db, const std::string& survey_id, bool exclusive) {
  DENIABLE_TRY(db.Exec(exclusive ? "SELECT 1 FROM surveys WHERE id = $1 FOR UPDATE"
                                  : "SELECT 1 FROM surveys WHERE id = $1 FOR SHARE",
                       {survey_id}));
  return OkStatus();
}

Result<bool> Deleted(PgConnection& db, const std::string& survey_id) {
  DENIABLE_ASSIGN_OR_RETURN(PgResult row, db.Exec("SELECT 1 FROM deleted_surveys WHERE survey_id = $1", {survey_id}));
  return row.Rows() > 0;
}

// Closed by the admin, or its closing time passed by the database's clock.
// clock_timestamp(), not now(): now() is the transaction's start, which may
// be before a wait for the survey's lock.
const char* const kClosedSql = "closed OR coalesce(closes_at <= clock_timestamp(), false)";

Result<bool> Closed(PgConnection& db, const std::string& survey_id) {
  DENIABLE_ASSIGN_OR_RETURN(
      PgResult row, db.Exec(std::string("SELECT ") + kClosedSql + " FROM survey_status WHERE survey_id = $1", {survey_id}));
  return row.Rows() > 0 && IsTrue(row.Text(0, 0));
}

// In the transaction of each catalog change, last (so no survey lock is
// awaited while the row is held): the version moves and the other nodes are
// told, both only if the transaction commits.
Status CatalogChanged(PgConnection& db) {
  return db.ExecScript("UPDATE catalog_version SET version = version + 1; NOTIFY deniable_catalog");
}

// A correction's time as ISO 8601 UTC (as SQLite stores it).
const char* const kMadeAtSql = "to_char(made_at AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"')";

Error DeletedError(const std::string& survey_id) {
  return MakeError("survey \"" + survey_id + "\" was deleted", ErrorCode::kNotFound);
}

// Keyset pagination by id: each chunk one statement (retried alone if the
// connection is lost), nothing held between chunks.
Status ForEachChunk(PgPool& pool, const std::string& sql, const std::vector<PgParam>& params, int chunk,
                    const std::function<bool()>& cancelled, const std::function<void(const PgResult&, int)>& visit) {
  std::string after = "0";  // bigserial ids start at 1
  for (;;) {
    if (cancelled && cancelled()) return MakeError("the read was cancelled", ErrorCode::kCancelled);
    std::vector<PgParam> all = params;
    all.push_back(after);
    all.push_back(std::to_string(chunk));
    DENIABLE_ASSIGN_OR_RETURN(PgResult rows, RunOne(pool, sql, all));
    for (int i = 0; i < rows.Rows(); ++i) visit(rows, i);
    if (rows.Rows() < chunk) return OkStatus();
    after = rows.Text(rows.Rows() - 1, 0);
  }
}

const char* const kVersionSql = "SELECT coalesce(sum(version), 0) FROM survey_aggregates WHERE survey_id = $1";
const char* const kShardsSql =
    "SELECT shard, version, blob FROM survey_aggregates WHERE survey_id = $1 AND version > 0 ORDER BY shard";

StoredAggregate AggregateOf(const PgResult& rows) {
  StoredAggregate aggregate;
  for (int i = 0; i < rows.Rows(); ++i) {
    aggregate.shards.push_back(AggregateShard{static_cast<int>(rows.Int(i, 0)), rows.Int(i, 1), rows.Text(i, 2)});
    aggregate.version += aggregate.shards.back().version;
  }
  return aggregate;
}

}  // namespace

Result<std::unique_ptr<PostgresStorage>> PostgresStorage::Open(const std::string& url, int connections,
                                                               const std::vector<PgMigration>& migrations) {
  if (!IsPgUrl(url)) {
    return MakeError("the database URL " + RedactPgUrl(url) + " is not valid: it must start with postgresql:// or postgres://",
                     ErrorCode::kInvalidArgument);
  }
  auto pool = std::make_unique<PgPool>(url, connections);
  // One connection first, not retried: a wrong URL or a server down is said at once.
  {
    auto first = pool->Acquire();
    if (!first) return std::move(first).failure();
  }
  DENIABLE_TRY(MigratePostgres(*pool, migrations));
  std::random_device device;
  const int shard = std::uniform_int_distribution<int>(0, kPgAggregateShards - 1)(device);
  return std::unique_ptr<PostgresStorage>(new PostgresStorage(std::move(pool), shard));
}

// --- start-up

Result<StoredState> PostgresStorage::LoadState() {
  StoredState state;
  // REPEATABLE READ: one snapshot, so no survey is read without its ledgers.
  DENIABLE_TRY(RunTx(*pool_, PgIsolation::kRepeatableRead, [&](PgConnection& db) -> Status {
    state = StoredState{};
    DENIABLE_ASSIGN_OR_RETURN(PgResult surveys, db.Exec("SELECT id, definition FROM surveys ORDER BY id"));
    for (int i = 0; i < surveys.Rows(); ++i) state.surveys.push_back({surveys.Text(i, 0), surveys.Text(i, 1)});
    DENIABLE_ASSIGN_OR_RETURN(
        PgResult statuses,
        db.Exec("SELECT survey_id, closed, coalesce(to_char(closes_at AT TIME ZONE 'UTC', "
                "'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"'), '') FROM survey_status ORDER BY survey_id"));
    for (int i = 0; i < statuses.Rows(); ++i) {
      state.statuses.push_back({statuses.Text(i, 0), IsTrue(statuses.Text(i, 1)), statuses.Text(i, 2)});
    }
    DENIABLE_ASSIGN_OR_RETURN(
        PgResult ledgers,
        db.Exec("SELECT survey_id, question_id, ledger FROM release_ledgers ORDER BY survey_id, question_id"));
    for (int i = 0; i < ledgers.Rows(); ++i) {
      state.ledgers.push_back({ledgers.Text(i, 0), ledgers.Text(i, 1), ledgers.Text(i, 2)});
    }
    DENIABLE_ASSIGN_OR_RETURN(
        PgResult corrections,
        db.Exec(std::string("SELECT survey_id, ") + kMadeAtSql + ", changes FROM survey_corrections ORDER BY survey_id, id"));
    for (int i = 0; i < corrections.Rows(); ++i) {
      state.corrections.push_back({corrections.Text(i, 0), corrections.Text(i, 1), corrections.Text(i, 2)});
    }
    return OkStatus();
  }));
  return state;
}

// In chunks by id, not in one snapshot: a report another node commits
// meanwhile may or may not be visited (its id may be below one already read).
Status PostgresStorage::ForEachReport(const ReportVisitor& visit) {
  return ForEachChunk(*pool_, "SELECT id, survey_id, body FROM reports WHERE id > $1 ORDER BY id LIMIT $2", {}, 5000,
                      nullptr, [&](const PgResult& rows, int i) { visit(rows.Text(i, 1), rows.Text(i, 2)); });
}

// --- surveys

Result<CreateOutcome> PostgresStorage::CreateSurvey(const std::string& id, int version, const std::string& definition,
                                                    const std::optional<std::string>& secret_key) {
  CreateOutcome outcome = CreateOutcome::kCreated;
  DENIABLE_TRY(RunTx(*pool_, PgIsolation::kReadCommitted, [&](PgConnection& db) -> Status {
    // The id's lock: a deletion of this id committed before it, or waits for this transaction.
    DENIABLE_TRY(LockKey(db, "survey:" + id));
    DENIABLE_ASSIGN_OR_RETURN(const bool deleted, Deleted(db, id));
    if (deleted) {
      outcome = CreateOutcome::kDeleted;
      return OkStatus();
    }
    DENIABLE_ASSIGN_OR_RETURN(PgResult inserted,
                              db.Exec("INSERT INTO surveys (id, version, definition) VALUES ($1, $2, $3) "
                                      "ON CONFLICT (id) DO NOTHING",
                                      {id, std::to_string(version), definition}));
    if (inserted.Changed() == 0) {
      outcome = CreateOutcome::kExists;
      return OkStatus();
    }
    outcome = CreateOutcome::kCreated;
    if (secret_key) {
      DENIABLE_TRY(db.Exec("INSERT INTO survey_keys (survey_id, secret) VALUES ($1, decode($2, 'hex'))",
                           {id, HexOf(*secret_key)}));
    }
    return CatalogChanged(db);
  }));
  return outcome;
}

Result<std::string> PostgresStorage::LoadOrCreateSurveyKey(const std::string& survey_id,
                                                           const std::function<std::string()>& fresh) {
  std::string key;
  DENIABLE_TRY(RunTx(*pool_, PgIsolation::kReadCommitted, [&](PgConnection& db) -> Status {
    DENIABLE_TRY(LockSurvey(db, survey_id, false));
    DENIABLE_ASSIGN_OR_RETURN(const bool deleted, Deleted(db, survey_id));
    if (deleted) return DeletedError(survey_id);
    const char* select = "SELECT secret FROM survey_keys WHERE survey_id = $1";
    DENIABLE_ASSIGN_OR_RETURN(PgResult stored, db.Exec(select, {survey_id}));
    if (stored.Rows() == 0) {
      // Two nodes may both get here: the second's insert waits for the
      // first's commit and does nothing; both read the first's key below.
      DENIABLE_TRY(db.Exec("INSERT INTO survey_keys (survey_id, secret) VALUES ($1, decode($2, 'hex')) "
                           "ON CONFLICT (survey_id) DO NOTHING",
                           {survey_id, HexOf(fresh())}));
      DENIABLE_ASSIGN_OR_RETURN(stored, db.Exec(select, {survey_id}));
      if (stored.Rows() == 0) return MakeError("survey key of \"" + survey_id + "\" not stored", ErrorCode::kInternal);
    }
    key = stored.Bytes(0, 0);
    return OkStatus();
  }));
  return key;
}

Status PostgresStorage::SetStatus(const StoredStatus& status) {
  return RunTx(*pool_, PgIsolation::kReadCommitted, [&](PgConnection& db) -> Status {
    // FOR UPDATE: waits for the commits holding the row FOR SHARE; those after it read the new status.
    DENIABLE_TRY(LockSurvey(db, status.survey_id, true));
    DENIABLE_TRY(db.Exec("INSERT INTO survey_status (survey_id, closed, closes_at) "
                         "VALUES ($1, $2, nullif($3, '')::timestamptz) "
                         "ON CONFLICT (survey_id) DO UPDATE SET closed = excluded.closed, closes_at = excluded.closes_at",
                         {status.survey_id, std::string(status.closed ? "true" : "false"), status.closes_at}));
    return CatalogChanged(db);
  });
}

Result<std::int64_t> PostgresStorage::DeleteSurvey(const std::string& survey_id) {
  std::int64_t reports = 0;
  DENIABLE_TRY(RunTx(*pool_, PgIsolation::kReadCommitted, [&](PgConnection& db) -> Status {
    DENIABLE_TRY(LockKey(db, "survey:" + survey_id));
    // Concurrent deletions: the first deletes, the others find it deleted.
    DENIABLE_ASSIGN_OR_RETURN(const bool already, Deleted(db, survey_id));
    if (already) return MakeError("survey \"" + survey_id + "\" was deleted already", ErrorCode::kNotFound);
    // Waits for the commits in flight (FOR SHARE); the DELETEs below, later
    // statements, see what they stored, and the commits after find no row.
    DENIABLE_TRY(LockSurvey(db, survey_id, true));
    DENIABLE_ASSIGN_OR_RETURN(PgResult deleted, db.Exec("DELETE FROM reports WHERE survey_id = $1", {survey_id}));
    reports = deleted.Changed();
    for (const char* sql : {"DELETE FROM invitations WHERE survey_id = $1", "DELETE FROM spent_tokens WHERE survey_id = $1",
                            "DELETE FROM survey_keys WHERE survey_id = $1",
                            "DELETE FROM release_ledgers WHERE survey_id = $1",
                            "DELETE FROM survey_status WHERE survey_id = $1",
                            "DELETE FROM survey_aggregates WHERE survey_id = $1",
                            "DELETE FROM survey_corrections WHERE survey_id = $1", "DELETE FROM surveys WHERE id = $1",
                            "INSERT INTO deleted_surveys (survey_id) VALUES ($1)"}) {
      DENIABLE_TRY(db.Exec(sql, {survey_id}));
    }
    return CatalogChanged(db);
  }));
  // PostgreSQL keeps the deleted rows as dead tuples until VACUUM (the next
  // autovacuum) reuses their space, and in the WAL, its archive, base backups
  // and standbys until those are recycled: there is no secure delete.
  return reports;
}

Result<StoredCorrection> PostgresStorage::CorrectSurvey(const std::string& survey_id, const std::string& expected,
                                                        const std::string& corrected, const std::string& changes) {
  StoredCorrection record{survey_id, "", changes};
  DENIABLE_TRY(RunTx(*pool_, PgIsolation::kReadCommitted, [&](PgConnection& db) -> Status {
    // FOR UPDATE: a second correction (or a deletion) of the survey waits
    // for this one, then reads the definition it stored.
    DENIABLE_ASSIGN_OR_RETURN(PgResult stored, db.Exec("SELECT definition FROM surveys WHERE id = $1 FOR UPDATE", {survey_id}));
    if (stored.Rows() == 0) return DeletedError(survey_id);
    if (stored.Text(0, 0) != expected) {
      return MakeError("survey \"" + survey_id + "\" was corrected meanwhile", ErrorCode::kConflict);
    }
    DENIABLE_TRY(db.Exec("UPDATE surveys SET definition = $2 WHERE id = $1", {survey_id, corrected}));
    DENIABLE_ASSIGN_OR_RETURN(PgResult inserted,
                              db.Exec(std::string("INSERT INTO survey_corrections (survey_id, changes) VALUES ($1, $2) "
                                                  "RETURNING ") + kMadeAtSql,
                                      {survey_id, changes}));
    record.made_at = inserted.Text(0, 0);
    return CatalogChanged(db);
  }));
  return record;
}

Result<bool> PostgresStorage::WasDeleted(const std::string& survey_id) {
  DENIABLE_ASSIGN_OR_RETURN(PgResult row, RunOne(*pool_, "SELECT 1 FROM deleted_surveys WHERE survey_id = $1", {survey_id}));
  return row.Rows() > 0;
}

// --- invitation codes

Status PostgresStorage::AddInvitations(const std::string& survey_id, const std::vector<std::string>& code_hashes) {
  if (code_hashes.empty()) return OkStatus();
  return RunTx(*pool_, PgIsolation::kReadCommitted, [&](PgConnection& db) -> Status {
    DENIABLE_TRY(db.Exec("INSERT INTO invitations (survey_id, code_hash) SELECT $1, unnest($2::text[])",
                         {survey_id, PgTextArray(code_hashes)}));
    return OkStatus();
  });
}

Result<bool> PostgresStorage::InvitationUnused(const std::string& survey_id, const std::string& code_hash) {
  DENIABLE_ASSIGN_OR_RETURN(
      PgResult row,
      RunOne(*pool_, "SELECT 1 FROM invitations WHERE survey_id = $1 AND code_hash = $2 AND used = 0", {survey_id, code_hash}));
  return row.Rows() > 0;
}

Result<InvitationCounts> PostgresStorage::CountInvitations(const std::string& survey_id) {
  DENIABLE_ASSIGN_OR_RETURN(
      PgResult row,
      RunOne(*pool_, "SELECT count(*), coalesce(sum(used), 0) FROM invitations WHERE survey_id = $1", {survey_id}));
  return InvitationCounts{row.Int(0, 0), row.Int(0, 1)};
}

Result<IssueOutcome> PostgresStorage::SpendInvitationForToken(const std::string& survey_id,
                                                              const std::string& code_hash,
                                                              const std::string& blinded_hash) {
  IssueOutcome outcome = IssueOutcome::kRejected;
  DENIABLE_TRY(RunTx(*pool_, PgIsolation::kReadCommitted, [&](PgConnection& db) -> Status {
    outcome = IssueOutcome::kRejected;
    DENIABLE_TRY(LockSurvey(db, survey_id, false));
    DENIABLE_ASSIGN_OR_RETURN(const bool deleted, Deleted(db, survey_id));
    if (deleted) {
      outcome = IssueOutcome::kSurveyDeleted;
      return OkStatus();
    }
    DENIABLE_ASSIGN_OR_RETURN(const bool closed, Closed(db, survey_id));
    if (closed) {
      outcome = IssueOutcome::kSurveyClosed;
      return OkStatus();
    }
    // FOR UPDATE: a racing issuance (any node) waits here, then reads the code spent.
    DENIABLE_ASSIGN_OR_RETURN(
        PgResult code, db.Exec("SELECT used, coalesce(blinded_hash, '') FROM invitations "
                               "WHERE survey_id = $1 AND code_hash = $2 FOR UPDATE",
                               {survey_id, code_hash}));
    if (code.Rows() == 0) return OkStatus();  // kRejected
    if (code.Int(0, 0) != 0) {
      const std::string spent_for = code.Text(0, 1);
      outcome = !spent_for.empty() && spent_for == blinded_hash ? IssueOutcome::kRepeated : IssueOutcome::kRejected;
      return OkStatus();
    }
    DENIABLE_ASSIGN_OR_RETURN(
        PgResult spent, db.Exec("UPDATE invitations SET used = 1, blinded_hash = $3 "
                                "WHERE survey_id = $1 AND code_hash = $2 AND used = 0",
                                {survey_id, code_hash, blinded_hash}));
    outcome = spent.Changed() == 1 ? IssueOutcome::kSpent : IssueOutcome::kRejected;
    return OkStatus();
  }));
  return outcome;
}

// --- reports

Status PostgresStorage::ForEachReportOf(const std::string& survey_id, const BodyVisitor& visit,
                                        const std::function<bool()>& cancelled, int chunk) {
  return ForEachChunk(*pool_, "SELECT id, body FROM reports WHERE survey_id = $1 AND id > $2 ORDER BY id LIMIT $3",
                      {survey_id}, std::max(chunk, 1), cancelled,
                      [&](const PgResult& rows, int i) { visit(rows.Text(i, 1)); });
}

// In the order of RecordOutcome's documentation, as SqliteStorage decides.
// Runs after the batch's surveys rows are locked FOR SHARE, so the deletion
// and status read here are those no DeleteSurvey or SetStatus can change
// before this transaction ends.
Result<std::vector<RecordOutcome>> PostgresStorage::Decide(PgConnection& db,
                                                           const std::vector<const ReportRecord*>& records,
                                                           const BatchAdmission& admit, AggregateHooks* aggregates) {
  std::vector<RecordOutcome> outcomes(records.size(), RecordOutcome::kStored);
  std::vector<std::string> token_surveys, tokens;
  for (const ReportRecord* record : records) {
    if (!record->token_hash) continue;
    token_surveys.push_back(record->survey_id);
    tokens.push_back(*record->token_hash);
  }
  std::set<std::pair<std::string, std::string>> spent;
  if (!tokens.empty()) {
    DENIABLE_ASSIGN_OR_RETURN(
        PgResult rows, db.Exec("SELECT t.survey_id, t.token_hash FROM spent_tokens t "
                               "JOIN unnest($1::text[], $2::text[]) AS b(survey_id, token_hash) "
                               "ON t.survey_id = b.survey_id AND t.token_hash = b.token_hash",
                               {PgTextArray(token_surveys), PgTextArray(tokens)}));
    for (int i = 0; i < rows.Rows(); ++i) spent.emplace(rows.Text(i, 0), rows.Text(i, 1));
  }
  std::set<std::pair<std::string, std::string>> in_batch;
  std::vector<std::size_t> candidates;
  for (std::size_t i = 0; i < records.size(); ++i) {
    const ReportRecord& record = *records[i];
    if (record.token_hash) {
      const std::pair<std::string, std::string> key(record.survey_id, *record.token_hash);
      if (!in_batch.insert(key).second || spent.count(key) > 0) {
        outcomes[i] = RecordOutcome::kTokenUsed;
        continue;
      }
    }
    candidates.push_back(i);
  }
  if (aggregates != nullptr) {
    // A survey whose admission needs the global state: its aggregate lock
    // (every node's commits of it take it), then the shards as committed.
    std::set<std::string> surveys;
    for (std::size_t i : candidates) surveys.insert(records[i]->survey_id);
    for (const std::string& id : surveys) {  // in id order: no deadlock between two batches
      if (!aggregates->NeedsGlobalState(id)) continue;
      DENIABLE_TRY(LockKey(db, "aggregate:" + id));
      DENIABLE_ASSIGN_OR_RETURN(PgResult version, db.Exec(kVersionSql, {id}));
      DENIABLE_TRY(aggregates->Refresh(id, version.Int(0, 0), [&]() -> Result<StoredAggregate> {
        DENIABLE_ASSIGN_OR_RETURN(PgResult shards, db.Exec(kShardsSql, {id}));
        return AggregateOf(shards);
      }));
    }
  }
  if (admit && !candidates.empty()) {
    const std::vector<bool> admitted = admit(candidates);
    for (std::size_t k = 0; k < candidates.size(); ++k) {
      if (k >= admitted.size() || !admitted[k]) outcomes[candidates[k]] = RecordOutcome::kNotAdmitted;
    }
  }
  std::vector<std::string> surveys;
  for (std::size_t i = 0; i < records.size(); ++i) {
    if (outcomes[i] == RecordOutcome::kStored) surveys.push_back(records[i]->survey_id);
  }
  if (surveys.empty()) return outcomes;
  std::map<std::string, RecordOutcome> refusal;
  DENIABLE_ASSIGN_OR_RETURN(
      PgResult states,
      db.Exec("SELECT s.id, d.survey_id IS NOT NULL, "
              "coalesce(st.closed OR coalesce(st.closes_at <= clock_timestamp(), false), false) FROM (SELECT DISTINCT unnest($1::text[]) AS id) s "
              "LEFT JOIN deleted_surveys d ON d.survey_id = s.id "
              "LEFT JOIN survey_status st ON st.survey_id = s.id",
              {PgTextArray(surveys)}));
  for (int i = 0; i < states.Rows(); ++i) {
    refusal[states.Text(i, 0)] = IsTrue(states.Text(i, 1))   ? RecordOutcome::kSurveyDeleted
                                 : IsTrue(states.Text(i, 2)) ? RecordOutcome::kSurveyClosed
                                                             : RecordOutcome::kStored;
  }
  for (std::size_t i = 0; i < records.size(); ++i) {
    if (outcomes[i] == RecordOutcome::kStored) outcomes[i] = refusal[records[i]->survey_id];
  }
  return outcomes;
}

Status PostgresStorage::Store(PgConnection& db, const std::vector<const ReportRecord*>& records,
                              std::vector<RecordOutcome>& outcomes) {
  // The tokens first: a token another node spent since Decide read them is
  // not inserted (ON CONFLICT DO NOTHING waits for that node's commit), and
  // its report is not stored.
  std::vector<std::string> token_surveys, tokens;
  for (std::size_t i = 0; i < records.size(); ++i) {
    if (outcomes[i] != RecordOutcome::kStored || !records[i]->token_hash) continue;
    token_surveys.push_back(records[i]->survey_id);
    tokens.push_back(*records[i]->token_hash);
  }
  if (!tokens.empty()) {
    DENIABLE_ASSIGN_OR_RETURN(
        PgResult inserted, db.Exec("INSERT INTO spent_tokens (survey_id, token_hash) "
                                   "SELECT * FROM unnest($1::text[], $2::text[]) "
                                   "ON CONFLICT DO NOTHING RETURNING survey_id, token_hash",
                                   {PgTextArray(token_surveys), PgTextArray(tokens)}));
    std::set<std::pair<std::string, std::string>> spent_now;
    for (int i = 0; i < inserted.Rows(); ++i) spent_now.emplace(inserted.Text(i, 0), inserted.Text(i, 1));
    for (std::size_t i = 0; i < records.size(); ++i) {
      if (outcomes[i] != RecordOutcome::kStored || !records[i]->token_hash) continue;
      if (spent_now.count({records[i]->survey_id, *records[i]->token_hash}) == 0) outcomes[i] = RecordOutcome::kTokenUsed;
    }
  }
  std::vector<std::string> surveys, bodies;
  for (std::size_t i = 0; i < records.size(); ++i) {
    if (outcomes[i] != RecordOutcome::kStored) continue;
    surveys.push_back(records[i]->survey_id);
    bodies.push_back(records[i]->body);
  }
  if (surveys.empty()) return OkStatus();
  // In batch order: ids follow arrival, as SQLite's rowids do.
  DENIABLE_TRY(db.Exec("INSERT INTO reports (survey_id, body) "
                       "SELECT s, b FROM unnest($1::text[], $2::text[]) WITH ORDINALITY AS r(s, b, n) ORDER BY n",
                       {PgTextArray(surveys), PgTextArray(bodies)}));
  return OkStatus();
}

Status PostgresStorage::ExtendShards(PgConnection& db, const std::vector<const ReportRecord*>& records,
                                     const std::vector<RecordOutcome>& outcomes, AggregateHooks& aggregates) {
  std::map<std::string, std::vector<std::size_t>> stored;  // per survey (in id order), its stored records in batch order
  for (std::size_t i = 0; i < records.size(); ++i) {
    if (outcomes[i] == RecordOutcome::kStored) stored[records[i]->survey_id].push_back(i);
  }
  const std::string shard = std::to_string(shard_);
  for (const auto& [survey_id, indices] : stored) {
    // The shard's row exists (version 0 until a commit extends it), then is
    // locked: a node sharing this shard number waits for this commit.
    DENIABLE_TRY(db.Exec("INSERT INTO survey_aggregates (survey_id, shard, version, blob) VALUES ($1, $2, 0, '') "
                         "ON CONFLICT (survey_id, shard) DO NOTHING",
                         {survey_id, shard}));
    DENIABLE_ASSIGN_OR_RETURN(
        PgResult row, db.Exec("SELECT version, blob FROM survey_aggregates WHERE survey_id = $1 AND shard = $2 FOR UPDATE",
                              {survey_id, shard}));
    std::optional<AggregateShard> current;
    if (row.Rows() > 0 && row.Int(0, 0) > 0) current = AggregateShard{shard_, row.Int(0, 0), row.Text(0, 1)};
    DENIABLE_ASSIGN_OR_RETURN(PgResult version, db.Exec(kVersionSql, {survey_id}));
    DENIABLE_ASSIGN_OR_RETURN(const std::string blob, aggregates.Extend(survey_id, current, version.Int(0, 0), indices));
    DENIABLE_TRY(db.Exec("UPDATE survey_aggregates SET version = version + 1, blob = $3 WHERE survey_id = $1 AND shard = $2",
                         {survey_id, shard, blob}));
  }
  return OkStatus();
}

Result<std::int64_t> PostgresStorage::AggregateVersion(const std::string& survey_id) {
  DENIABLE_ASSIGN_OR_RETURN(PgResult row, RunOne(*pool_, kVersionSql, {survey_id}));
  return row.Int(0, 0);
}

// One statement: one snapshot of every shard.
Result<StoredAggregate> PostgresStorage::LoadAggregate(const std::string& survey_id) {
  DENIABLE_ASSIGN_OR_RETURN(PgResult rows, RunOne(*pool_, kShardsSql, {survey_id}));
  return AggregateOf(rows);
}

Result<std::vector<RecordOutcome>> PostgresStorage::CommitReports(const std::vector<const ReportRecord*>& records,
                                                                  const BatchAdmission& admit,
                                                                  AggregateHooks* aggregates) {
  std::set<std::string> ids;
  for (const ReportRecord* record : records) ids.insert(record->survey_id);
  std::vector<RecordOutcome> outcomes;
  const Status committed = RunTx(*pool_, PgIsolation::kReadCommitted, [&](PgConnection& db) -> Status {
    // In id order, so two batches lock their surveys alike (no deadlock between them).
    DENIABLE_TRY(db.Exec("SELECT 1 FROM surveys WHERE id = ANY($1::text[]) ORDER BY id FOR SHARE",
                         {PgTextArray(std::vector<std::string>(ids.begin(), ids.end()))}));
    DENIABLE_ASSIGN_OR_RETURN(outcomes, Decide(db, records, admit, aggregates));
    if (std::none_of(outcomes.begin(), outcomes.end(), [](RecordOutcome o) { return o == RecordOutcome::kStored; })) {
      return OkStatus();
    }
    DENIABLE_TRY(Store(db, records, outcomes));
    // The shards after the reports: what they count is what this commit stored.
    if (aggregates != nullptr) DENIABLE_TRY(ExtendShards(db, records, outcomes, *aggregates));
    return OkStatus();
  });
  // An error (kUnavailable: the database cannot be reached, or a COMMIT's
  // outcome is unknown) acknowledges nothing: the writer answers 503 and
  // forgets the shards it extended; if an unknown COMMIT was applied after
  // all, the survey's data version moved and every node refreshes from the shards.
  if (!committed) return committed.failure();
  return outcomes;
}

// --- release ledgers

Status PostgresStorage::UpdateLedger(const std::string& survey_id, const std::string& question_id,
                                     const LedgerUpdate& update) {
  return RunTx(*pool_, PgIsolation::kReadCommitted, [&](PgConnection& db) -> Status {
    // The question's lock: one read-modify-write at a time, across nodes,
    // even before its first ledger exists (no row to lock yet).
    DENIABLE_TRY(LockKey(db, "ledger:" + survey_id + "\n" + question_id));
    DENIABLE_TRY(LockSurvey(db, survey_id, false));
    DENIABLE_ASSIGN_OR_RETURN(const bool deleted, Deleted(db, survey_id));
    if (deleted) return DeletedError(survey_id);
    DENIABLE_ASSIGN_OR_RETURN(
        PgResult row,
        db.Exec("SELECT ledger FROM release_ledgers WHERE survey_id = $1 AND question_id = $2", {survey_id, question_id}));
    const std::optional<std::string> stored =
        row.Rows() == 0 ? std::nullopt : std::optional<std::string>(row.Text(0, 0));
    DENIABLE_ASSIGN_OR_RETURN(const std::string ledger, update(stored));
    DENIABLE_TRY(db.Exec("INSERT INTO release_ledgers (survey_id, question_id, ledger) VALUES ($1, $2, $3) "
                         "ON CONFLICT (survey_id, question_id) DO UPDATE SET ledger = excluded.ledger",
                         {survey_id, question_id, ledger}));
    return CatalogChanged(db);
  });
}

// --- the admin token

Result<std::string> PostgresStorage::LoadOrCreateAdminToken(const std::function<std::string()>& fresh,
                                                            const std::function<Status(const std::string&)>& valid) {
  const char* select = "SELECT value FROM settings WHERE name = 'admin_token'";
  DENIABLE_ASSIGN_OR_RETURN(PgResult stored, RunOne(*pool_, select));
  if (stored.Rows() == 0) {
    // Nodes starting together: one insert wins, every node reads it.
    const std::string candidate = fresh();
    DENIABLE_TRY(RunTx(*pool_, PgIsolation::kReadCommitted, [&](PgConnection& db) -> Status {
      DENIABLE_TRY(db.Exec("INSERT INTO settings (name, value) VALUES ('admin_token', $1) ON CONFLICT (name) DO NOTHING",
                           {candidate}));
      return OkStatus();
    }));
    DENIABLE_ASSIGN_OR_RETURN(stored, RunOne(*pool_, select));
    if (stored.Rows() == 0) return MakeError("the admin token was not stored", ErrorCode::kInternal);
  }
  const std::string token = stored.Text(0, 0);
  if (auto checked = valid(token); !checked) {
    return InContext("the admin token in the settings table of " + RedactPgUrl(pool_->url()), checked.failure());
  }
  return token;
}

// --- catalog sync

Result<std::uint64_t> PostgresStorage::CatalogVersion() {
  DENIABLE_ASSIGN_OR_RETURN(PgResult row, RunOne(*pool_, "SELECT version FROM catalog_version"));
  if (row.Rows() == 0) return MakeError("the catalog_version row is missing", ErrorCode::kInternal);
  return static_cast<std::uint64_t>(row.Int(0, 0));
}

void PostgresStorage::WaitForChange(std::uint64_t seen, std::chrono::milliseconds timeout) {
  listener_.Wait(
      [&] {
        auto now = CatalogVersion();
        return !now || *now != seen;
      },
      timeout);
}

void PostgresStorage::InterruptWait() { listener_.Interrupt(); }

}  // namespace deniable::server
