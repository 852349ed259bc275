// PostgresStorage across nodes: two PostgresStorage instances (two "nodes",
// each with its own connection pool) on one database, racing; the schema's
// versions; a lost connection; a bad URL.
#include "server/storage/postgres_storage.h"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <atomic>
#include <string>
#include <thread>
#include <vector>

#include <doctest/doctest.h>

#include "server/storage/pg_connection.h"
#include "server/storage/pg_migrations.h"
#include "storage/store_fixtures.h"

namespace deniable::server {
namespace {

using O = RecordOutcome;

std::vector<const ReportRecord*> Pointers(const std::vector<ReportRecord>& records) {
  std::vector<const ReportRecord*> pointers;
  for (const auto& record : records) pointers.push_back(&record);
  return pointers;
}

std::vector<RecordOutcome> Commit(Storage& storage, const std::vector<ReportRecord>& records) {
  auto outcomes = storage.CommitReports(Pointers(records), nullptr);
  REQUIRE_MESSAGE(outcomes.ok(), (outcomes.ok() ? "" : outcomes.error()));
  return *outcomes;
}

void Create(Storage& storage, const std::string& id) {
  auto created = storage.CreateSurvey(id, 1, "{}");
  REQUIRE_MESSAGE(created.ok(), (created.ok() ? "" : created.error()));
  REQUIRE(*created == CreateOutcome::kCreated);
}

// Runs body(node, thread) on `threads` threads, alternating between the two nodes.
void Race(int threads, Storage& a, Storage& b, const std::function<void(Storage&, int)>& body) {
  std::vector<std::thread> running;
  for (int t = 0; t < threads; ++t) running.emplace_back([&, t] { body(t % 2 == 0 ? a : b, t); });
  for (auto& thread : running) thread.join();
}

long long Exec1(const std::string& url, const std::string& sql) {
  auto db = PgConnection::Connect(url);
  REQUIRE_MESSAGE(db.ok(), (db.ok() ? "" : db.error()));
  auto rows = (*db)->Exec(sql);
  REQUIRE_MESSAGE(rows.ok(), (rows.ok() ? "" : rows.error()));
  return rows->Rows() > 0 && !rows->IsNull(0, 0) ? rows->Int(0, 0) : 0;
}

}  // namespace

TEST_CASE("PostgresStorage, two nodes: a code is spent for one element, a token by one report, an id created once") {
  PostgresStore store;
  auto a = store.OpenPostgres(8);
  auto b = store.OpenPostgres(8);
  Create(*a, "invited");
  REQUIRE(a->AddInvitations("invited", {"c"}).ok());

  std::vector<IssueOutcome> issued(20);
  Race(20, *a, *b, [&](Storage& node, int t) {
    auto outcome = node.SpendInvitationForToken("invited", "c", "e" + std::to_string(t));
    REQUIRE(outcome.ok());
    issued[t] = *outcome;
  });
  CHECK(std::count(issued.begin(), issued.end(), IssueOutcome::kSpent) == 1);
  CHECK(std::count(issued.begin(), issued.end(), IssueOutcome::kRejected) == 19);

  std::vector<RecordOutcome> committed(20);
  Race(20, *a, *b, [&](Storage& node, int t) {
    committed[t] = Commit(node, {{"invited", "r" + std::to_string(t), std::string("token")}})[0];
  });
  CHECK(std::count(committed.begin(), committed.end(), O::kStored) == 1);
  CHECK(std::count(committed.begin(), committed.end(), O::kTokenUsed) == 19);
  CHECK(store.Count("SELECT count(*) FROM reports") == 1);

  std::vector<CreateOutcome> created(20);
  Race(20, *a, *b, [&](Storage& node, int t) {
    auto outcome = node.CreateSurvey("one-id", 1, "{}", std::string(32, static_cast<char>(t)));
    REQUIRE(outcome.ok());
    created[t] = *outcome;
  });
  CHECK(std::count(created.begin(), created.end(), CreateOutcome::kCreated) == 1);
  CHECK(std::count(created.begin(), created.end(), CreateOutcome::kExists) == 19);

  // A key made for a survey without one: the same on both nodes.
  Create(*a, "older");
  std::vector<std::string> keys(10);
  Race(10, *a, *b, [&](Storage& node, int t) {
    keys[t] = *node.LoadOrCreateSurveyKey("older", [t] { return std::string(31, '\0') + char('a' + t); });
  });
  CHECK(std::count(keys.begin(), keys.end(), keys[0]) == 10);
  CHECK(keys[0].size() == 32);
}

TEST_CASE("PostgresStorage, two nodes: no report is stored after DeleteSurvey or a close returned") {
  PostgresStore store;
  auto a = store.OpenPostgres(8);
  auto b = store.OpenPostgres(8);
  for (const char* id : {"doomed", "shut"}) Create(*a, id);
  for (const std::string survey : {"doomed", "shut"}) {
    std::atomic<bool> done{false};
    std::atomic<long long> acknowledged{0};
    std::vector<std::thread> writers;
    for (int t = 0; t < 6; ++t) {
      writers.emplace_back([&, t] {
        Storage& node = t % 2 == 0 ? *a : *b;
        for (int k = 0; !done && k < 2000; ++k) {
          std::vector<ReportRecord> batch;
          for (int r = 0; r < 5; ++r) batch.push_back({survey, "r", std::nullopt});
          for (RecordOutcome o : Commit(node, batch)) acknowledged += o == O::kStored ? 1 : 0;
        }
      });
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    long long after_return = -1;
    if (survey == "doomed") {
      auto deleted = b->DeleteSurvey(survey);
      REQUIRE(deleted.ok());
      after_return = store.Count("SELECT count(*) FROM reports WHERE survey_id = 'doomed'");
      done = true;
      for (auto& writer : writers) writer.join();
      // Every acknowledged report was stored before the deletion, and the deletion erased each.
      CHECK(*deleted == acknowledged.load());
      CHECK(after_return == 0);
      CHECK(store.Count("SELECT count(*) FROM reports WHERE survey_id = 'doomed'") == 0);
    } else {
      REQUIRE(b->SetStatus({survey, true, ""}).ok());
      after_return = store.Count("SELECT count(*) FROM reports WHERE survey_id = 'shut'");
      done = true;
      for (auto& writer : writers) writer.join();
      CHECK(after_return == acknowledged.load());
      CHECK(store.Count("SELECT count(*) FROM reports WHERE survey_id = 'shut'") == acknowledged.load());
    }
    CHECK(acknowledged.load() > 0);
    MESSAGE(survey << ": " << acknowledged.load() << " reports acknowledged before the change");
  }
  // A closing time passed by the database's clock refuses like a close.
  Create(*a, "timed");
  REQUIRE(a->SetStatus({"timed", false, "2000-01-01T00:00:00Z"}).ok());
  CHECK(Commit(*b, {{"timed", "late", std::nullopt}}) == std::vector<O>{O::kSurveyClosed});
}

TEST_CASE("PostgresStorage, two nodes: ledger read-modify-writes lose no update; the admin token is created once") {
  PostgresStore store;
  auto a = store.OpenPostgres(4);
  auto b = store.OpenPostgres(4);
  Create(*a, "s");
  Race(4, *a, *b, [&](Storage& node, int) {
    for (int i = 0; i < 50; ++i) {
      REQUIRE(node.UpdateLedger("s", "count", [](const std::optional<std::string>& stored) -> Result<std::string> {
        return std::to_string(stored ? std::stoi(*stored) + 1 : 1);
      }).ok());
    }
  });
  auto state = b->LoadState();
  REQUIRE(state.ok());
  REQUIRE(state->ledgers.size() == 1);
  CHECK(state->ledgers[0].ledger == "200");

  std::atomic<int> made{0};
  std::vector<std::string> tokens(10);
  const auto valid = [](const std::string& token) {
    return token.rfind("token", 0) == 0 ? OkStatus() : Status(MakeError("not a token"));
  };
  Race(10, *a, *b, [&](Storage& node, int t) {
    auto token = node.LoadOrCreateAdminToken([&] { return "token" + std::to_string(++made); }, valid);
    REQUIRE(token.ok());
    tokens[t] = *token;
  });
  CHECK(std::count(tokens.begin(), tokens.end(), tokens[0]) == 10);
  Exec1(store.url, "UPDATE settings SET value = 'garbage' WHERE name = 'admin_token'");
  auto refused = a->LoadOrCreateAdminToken([] { return std::string("token-new"); }, valid);
  REQUIRE_FALSE(refused.ok());
  CHECK(refused.error().find("settings table") != std::string::npos);
  CHECK(refused.error().find("not a token") != std::string::npos);
}

TEST_CASE("PostgresStorage: an empty database is initialised, an older one migrated once by two nodes at once, a newer one refused") {
  PostgresStore store;
  // Two nodes open an empty database at once: both succeed, it is migrated once.
  {
    std::vector<std::thread> nodes;
    std::atomic<int> opened{0};
    for (int i = 0; i < 2; ++i) {
      nodes.emplace_back([&] { opened += PostgresStorage::Open(store.url, 2).ok() ? 1 : 0; });
    }
    for (auto& node : nodes) node.join();
    CHECK(opened == 2);
    CHECK(Exec1(store.url, "SELECT version FROM schema_version") == 2);
    CHECK(Exec1(store.url, "SELECT count(*) FROM schema_history") == 2);
  }
  // A later binary's migration 3 (a table that can be created once only), applied by two nodes at once.
  const PgMigration third = {3, "test: a table", "CREATE TABLE extra (x integer);"};
  const std::vector<PgMigration> later = {kPgMigration0001, kPgMigration0002, third};
  {
    std::vector<std::thread> nodes;
    std::vector<std::string> errors(2);
    for (int i = 0; i < 2; ++i) {
      nodes.emplace_back([&, i] {
        auto opened = PostgresStorage::Open(store.url, 2, later);
        if (!opened) errors[i] = opened.error();
      });
    }
    for (auto& node : nodes) node.join();
    CHECK(errors[0] == "");
    CHECK(errors[1] == "");
    CHECK(Exec1(store.url, "SELECT version FROM schema_version") == 3);
    CHECK(Exec1(store.url, "SELECT count(*) FROM schema_history") == 3);
  }
  // This binary (schema 2) refuses the database now at schema 3, naming both.
  auto refused = PostgresStorage::Open(store.url, 2);
  REQUIRE_FALSE(refused.ok());
  CHECK(refused.error_code() == ErrorCode::kConflict);
  CHECK(refused.error().find("schema 3; this one knows schemas up to 2") != std::string::npos);
}

TEST_CASE("PostgresStorage: a schema 1 database (before corrections) migrates to 2 and keeps its data") {
  PostgresStore store;
  {
    auto old = PostgresStorage::Open(store.url, 2, {kPgMigration0001});
    REQUIRE_MESSAGE(old.ok(), (old.ok() ? "" : old.error()));
    Create(**old, "s");
    CHECK(Commit(**old, {{"s", "r1", std::nullopt}}) == std::vector<O>{O::kStored});
    REQUIRE((*old)->SetStatus({"s", true, ""}).ok());
  }
  CHECK(Exec1(store.url, "SELECT version FROM schema_version") == 1);
  auto storage = store.OpenPostgres(2);
  CHECK(Exec1(store.url, "SELECT version FROM schema_version") == 2);
  auto state = storage->LoadState();
  REQUIRE(state.ok());
  REQUIRE(state->surveys.size() == 1);
  CHECK(state->statuses.size() == 1);
  CHECK(state->corrections.empty());
  std::vector<std::string> bodies;
  REQUIRE(storage->ForEachReportOf("s", [&](const std::string& body) { bodies.push_back(body); }).ok());
  CHECK(bodies == std::vector<std::string>{"r1"});
  REQUIRE(storage->CorrectSurvey("s", "{}", "{\"title\":\"T\"}", "[]").ok());
  CHECK(storage->LoadState()->corrections.size() == 1);
}

TEST_CASE("PostgresStorage: a connection killed under the node is replaced, and the next operations succeed") {
  PostgresStore store;
  auto node = store.OpenPostgres(2);
  Create(*node, "s");
  REQUIRE(node->AddInvitations("s", {"c1", "c2"}).ok());
  CHECK(Commit(*node, {{"s", "before", std::nullopt}}) == std::vector<O>{O::kStored});
  for (int round = 0; round < 3; ++round) {
    // Every connection of this database but the killer's own.
    const long long killed = Exec1(store.url,
                                   "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                                   "WHERE datname = current_database() AND pid <> pg_backend_pid()");
    CHECK(killed >= 1);
    CHECK(Commit(*node, {{"s", "after" + std::to_string(round), std::nullopt}}) == std::vector<O>{O::kStored});
  }
  Exec1(store.url,
        "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
        "WHERE datname = current_database() AND pid <> pg_backend_pid()");
  CHECK(*node->SpendInvitationForToken("s", "c1", "b") == IssueOutcome::kSpent);
  CHECK(store.Count("SELECT count(*) FROM reports") == 4);
}

TEST_CASE("PostgresStorage: a bad URL or an unreachable server is a clear error without the password") {
  auto wrong = PostgresStorage::Open("mysql://user:secret@host/db");
  REQUIRE_FALSE(wrong.ok());
  CHECK(wrong.error_code() == ErrorCode::kInvalidArgument);
  CHECK(wrong.error().find("secret") == std::string::npos);
  auto down = PostgresStorage::Open("postgresql://user:secret@/db?host=/nonexistent-deniable-socket&connect_timeout=2");
  REQUIRE_FALSE(down.ok());
  CHECK(down.error_code() == ErrorCode::kUnavailable);
  CHECK(down.error().find("secret") == std::string::npos);
  CHECK(down.error().find("postgresql://user:***@/db") != std::string::npos);
  CHECK(RedactPgUrl("postgresql:///db?host=/x&password=pw&user=u") == "postgresql:///db?host=/x&password=***&user=u");
}

}  // namespace deniable::server

namespace deniable::server {
namespace {

// Appends the stored records' bodies to the shard's text (the store knows no kinds).
class AppendHooks final : public AggregateHooks {
 public:
  explicit AppendHooks(const std::vector<ReportRecord>& records) : records_(records) {}
  bool NeedsGlobalState(const std::string&) const override { return false; }
  Status Refresh(const std::string&, std::int64_t, const std::function<Result<StoredAggregate>()>&) override {
    return OkStatus();
  }
  Result<std::string> Extend(const std::string&, const std::optional<AggregateShard>& current, std::int64_t,
                             const std::vector<std::size_t>& stored) override {
    std::string blob = current ? current->blob : "";
    for (std::size_t i : stored) blob += records_[i].body + ";";
    return blob;
  }

 private:
  const std::vector<ReportRecord>& records_;
};

}  // namespace

TEST_CASE("PostgresStorage, three nodes: every stored report is in exactly one shard; the version counts the commits") {
  PostgresStore store;
  std::vector<std::unique_ptr<PostgresStorage>> nodes;
  for (int i = 0; i < 3; ++i) nodes.push_back(store.OpenPostgres(4));
  Create(*nodes[0], "s");
  std::atomic<int> commits{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 6; ++t) {
    threads.emplace_back([&, t] {
      for (int k = 0; k < 30; ++k) {
        const std::vector<ReportRecord> batch = {{"s", std::to_string(t) + "." + std::to_string(k) + "a", std::nullopt},
                                                 {"s", std::to_string(t) + "." + std::to_string(k) + "b", std::nullopt}};
        AppendHooks hooks(batch);
        auto outcomes = nodes[t % 3]->CommitReports(Pointers(batch), nullptr, &hooks);
        REQUIRE(outcomes.ok());
        if ((*outcomes)[0] == O::kStored) ++commits;
      }
    });
  }
  for (auto& thread : threads) thread.join();
  auto stored = nodes[1]->LoadAggregate("s");
  REQUIRE(stored.ok());
  CHECK(stored->version == commits.load());
  CHECK(*nodes[2]->AggregateVersion("s") == commits.load());
  std::vector<std::string> counted;
  for (const AggregateShard& shard : stored->shards) {
    std::size_t from = 0;
    for (std::size_t end = shard.blob.find(';'); end != std::string::npos; end = shard.blob.find(';', from = end + 1)) {
      counted.push_back(shard.blob.substr(from, end - from));
      from = end + 1;
    }
  }
  std::sort(counted.begin(), counted.end());
  CHECK(counted.size() == 6 * 30 * 2);
  CHECK(std::adjacent_find(counted.begin(), counted.end()) == counted.end());
  CHECK(store.Count("SELECT count(*) FROM reports") == 6 * 30 * 2);
}

}  // namespace deniable::server

namespace deniable::server {

TEST_CASE("PostgresStorage, two nodes: a catalog change on one wakes the other's WaitForChange at once (NOTIFY)") {
  PostgresStore store;
  auto a = store.OpenPostgres(2);
  auto b = store.OpenPostgres(2);
  for (int round = 0; round < 3; ++round) {
    const std::uint64_t seen = *b->CatalogVersion();
    std::thread change([&] {
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
      REQUIRE(*a->CreateSurvey("s" + std::to_string(round), 1, "{}") == CreateOutcome::kCreated);
    });
    const auto start = std::chrono::steady_clock::now();
    b->WaitForChange(seen, std::chrono::seconds(20));
    const auto waited = std::chrono::steady_clock::now() - start;
    change.join();
    CHECK(waited < std::chrono::seconds(5));
    CHECK(*b->CatalogVersion() != seen);
  }
  // The listening connection killed: the next wait reconnects and still wakes.
  Exec1(store.url, "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                   "WHERE datname = current_database() AND pid <> pg_backend_pid()");
  b->WaitForChange(*b->CatalogVersion(), std::chrono::milliseconds(200));  // finds its connection lost
  const std::uint64_t seen = *b->CatalogVersion();
  std::thread change([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    REQUIRE(a->SetStatus({"s0", true, ""}).ok());
  });
  const auto start = std::chrono::steady_clock::now();
  b->WaitForChange(seen, std::chrono::seconds(20));
  const auto waited = std::chrono::steady_clock::now() - start;
  change.join();
  CHECK(waited < std::chrono::seconds(5));
  CHECK(*b->CatalogVersion() != seen);
}

}  // namespace deniable::server

namespace deniable::server {

TEST_CASE("PostgresStorage: a connection lost during COMMIT is an error, never an acknowledgement, and is not retried") {
  PostgresStore store;
  auto node = store.OpenPostgres(2);
  Create(*node, "s");
  // A deferred trigger runs at COMMIT and ends its own session there: the
  // client sends COMMIT and loses the connection before any answer. The
  // sequence (not rolled back) counts the attempts.
  auto db = PgConnection::Connect(store.url);
  REQUIRE(db.ok());
  REQUIRE((*db)->ExecScript(R"sql(
    CREATE SEQUENCE commit_attempts;
    CREATE FUNCTION die_at_commit() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM nextval('commit_attempts');
      PERFORM pg_terminate_backend(pg_backend_pid());
      PERFORM pg_sleep(5);
      RETURN NULL;
    END $$;
    CREATE CONSTRAINT TRIGGER die_at_commit AFTER INSERT ON reports
      DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION die_at_commit();
  )sql").ok());
  const std::vector<ReportRecord> batch = {{"s", "unknown", std::nullopt}};
  auto outcome = node->CommitReports(Pointers(batch), nullptr);
  REQUIRE_FALSE(outcome.ok());
  CHECK(outcome.error_code() == ErrorCode::kUnavailable);
  CHECK(outcome.error().find("outcome is unknown") != std::string::npos);
  CHECK(Exec1(store.url, "SELECT last_value FROM commit_attempts") == 1);  // not run again
  REQUIRE((*db)->ExecScript("DROP TRIGGER die_at_commit ON reports").ok());
  // The node goes on: the next commit is stored.
  CHECK(Commit(*node, {{"s", "next", std::nullopt}}) == std::vector<O>{O::kStored});
}

}  // namespace deniable::server

namespace deniable::server {

TEST_CASE("PostgresStorage: PostgreSQL stopped and started again under the node: kUnavailable meanwhile, then it goes on") {
  // A cluster of its own (the shared one serves the other cases).
  char pattern[] = "/tmp/deniable-pg-restart-XXXXXX";
  REQUIRE(::mkdtemp(pattern) != nullptr);
  const std::string dir = pattern;
  const std::string script = "bash " DENIABLE_SOURCE_DIR "/scripts/pg-cluster.sh ";
  const auto run = [&](const std::string& command) { return std::system((script + command + " >/dev/null 2>&1").c_str()); };
  REQUIRE(run("start " + dir) == 0);
  const std::string url = "postgresql:///postgres?host=" + dir + "&user=" + (::getuid() == 0 ? "postgres" : std::getenv("USER"));
  {
    auto opened = PostgresStorage::Open(url, 2);
    REQUIRE_MESSAGE(opened.ok(), (opened.ok() ? "" : opened.error()));
    auto node = std::move(opened).value();
    Create(*node, "s");
    CHECK(Commit(*node, {{"s", "before", std::nullopt}}) == std::vector<O>{O::kStored});
    REQUIRE(run("stop " + dir) == 0);  // immediate: as a crash
    const std::vector<ReportRecord> during = {{"s", "during", std::nullopt}};
    auto refused = node->CommitReports(Pointers(during), nullptr);
    REQUIRE_FALSE(refused.ok());
    CHECK_MESSAGE(refused.error_code() == ErrorCode::kUnavailable, refused.error());
    CHECK(node->SetStatus({"s", false, ""}).error_code() == ErrorCode::kUnavailable);
    REQUIRE(run("start " + dir) == 0);
    CHECK(Commit(*node, {{"s", "after", std::nullopt}}) == std::vector<O>{O::kStored});
    std::vector<std::string> bodies;
    REQUIRE(node->ForEachReportOf("s", [&](const std::string& body) { bodies.push_back(body); }).ok());
    CHECK(bodies == std::vector<std::string>{"before", "after"});
  }
  run("stop " + dir);
  std::system(("rm -rf " + dir).c_str());
}

}  // namespace deniable::server

namespace deniable::server {

TEST_CASE("PostgresStorage: text goes through arrays and parameters byte for byte (quotes, backslashes, braces, UTF-8)") {
  PostgresStore store;
  auto node = store.OpenPostgres(2);
  const std::string id = "s\"q'uo\\te{,}";
  Create(*node, id);
  const std::vector<std::string> bodies = {R"({"a":"x\"y","b":"c\\d","e":[1,2],"f":"{,}"})", "NULL", "", "é ✓ \n\t end",
                                           "\"", "\\"};
  std::vector<ReportRecord> batch;
  for (std::size_t i = 0; i < bodies.size(); ++i) batch.push_back({id, bodies[i], "tok\"" + std::to_string(i) + "\\"});
  CHECK(Commit(*node, batch) == std::vector<O>(bodies.size(), O::kStored));
  std::vector<std::string> read;
  REQUIRE(node->ForEachReportOf(id, [&](const std::string& body) { read.push_back(body); }).ok());
  CHECK(read == bodies);
  CHECK(Commit(*node, {{id, "again", std::string("tok\"0\\")}}) == std::vector<O>{O::kTokenUsed});
  REQUIRE(node->AddInvitations(id, {"c\"1", "c\\2", "{c3}"}).ok());
  CHECK(*node->InvitationUnused(id, "c\\2"));
  CHECK(node->CountInvitations(id)->total == 3);
}

}  // namespace deniable::server

#include "server/storage/pg_pool.h"
#include "server/storage/pg_transaction.h"

namespace deniable::server {

TEST_CASE("RunTx: retries serialization failures and deadlocks (bounded, then kConflict), never the work's own errors") {
  PostgresStore store;
  PgPool pool(store.url, 2);
  int attempts = 0;
  // 40001 twice, then 40P01 once, then success: four runs of the work, one commit.
  const Status retried = RunTx(pool, PgIsolation::kReadCommitted, [&](PgConnection& db) -> Status {
    ++attempts;
    if (attempts <= 3) {
      const std::string code = attempts <= 2 ? "40001" : "40P01";
      DENIABLE_TRY(db.Exec("DO $$ BEGIN RAISE EXCEPTION 'raced' USING ERRCODE = '" + code + "'; END $$"));
    }
    DENIABLE_TRY(db.Exec("CREATE TABLE IF NOT EXISTS committed_once (x integer)"));
    DENIABLE_TRY(db.Exec("INSERT INTO committed_once VALUES (1)"));
    return OkStatus();
  });
  CHECK(retried.ok());
  CHECK(attempts == 4);
  CHECK(Exec1(store.url, "SELECT count(*) FROM committed_once") == 1);

  attempts = 0;
  const Status exhausted = RunTx(pool, PgIsolation::kRepeatableRead, [&](PgConnection& db) -> Status {
    ++attempts;
    DENIABLE_TRY(db.Exec("DO $$ BEGIN RAISE EXCEPTION 'raced' USING ERRCODE = '40001'; END $$"));
    return OkStatus();
  });
  CHECK(exhausted.error_code() == ErrorCode::kConflict);
  CHECK(attempts == kPgTxAttempts);

  // The work's own kConflict (e.g. a stale ledger) and a plain SQL error: run once.
  attempts = 0;
  const Status refused = RunTx(pool, PgIsolation::kReadCommitted, [&](PgConnection&) -> Status {
    ++attempts;
    return MakeError("stale", ErrorCode::kConflict);
  });
  CHECK(refused.error() == "stale");
  CHECK(attempts == 1);
  attempts = 0;
  const Status broken = RunTx(pool, PgIsolation::kReadCommitted, [&](PgConnection& db) -> Status {
    ++attempts;
    DENIABLE_TRY(db.Exec("SELECT * FROM no_such_table"));
    return OkStatus();
  });
  CHECK(broken.error_code() == ErrorCode::kInternal);
  CHECK(broken.error().find("42P01") != std::string::npos);
  CHECK(attempts == 1);
}

}  // namespace deniable::server
