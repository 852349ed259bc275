#include "server/storage/sqlite_storage.h"

#include <sys/stat.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <thread>
#include <vector>

#include <doctest/doctest.h>

#include "server/storage/sqlite_db.h"
#include "storage/store_fixtures.h"
#include "storage/temp_dir.h"

namespace deniable::server {
namespace {

std::unique_ptr<SqliteStorage> OpenIn(const TempDir& dir) {
  auto storage = SqliteStorage::Open(dir.File("deniable.sqlite3"));
  REQUIRE_MESSAGE(storage.ok(), (storage.ok() ? "" : storage.error()));
  return std::move(storage).value();
}

ReportRecord Open(const std::string& survey, const std::string& body) { return {survey, body, std::nullopt}; }
ReportRecord Invited(const std::string& survey, const std::string& body, const std::string& token_hash) {
  return {survey, body, token_hash};
}

std::vector<const ReportRecord*> Pointers(const std::vector<ReportRecord>& records) {
  std::vector<const ReportRecord*> pointers;
  for (const auto& record : records) pointers.push_back(&record);
  return pointers;
}

std::vector<RecordOutcome> Commit(Storage& storage, const std::vector<ReportRecord>& records,
                                  const BatchAdmission& admit = nullptr) {
  auto outcomes = storage.CommitReports(Pointers(records), admit);
  REQUIRE_MESSAGE(outcomes.ok(), (outcomes.ok() ? "" : outcomes.error()));
  return *outcomes;
}

std::vector<std::string> BodiesOf(Storage& storage, const std::string& survey) {
  std::vector<std::string> bodies;
  REQUIRE(storage.ForEachReportOf(survey, [&](const std::string& body) { bodies.push_back(body); }).ok());
  return bodies;
}

void Create(Storage& storage, const std::string& id) {
  auto created = storage.CreateSurvey(id, 1, "{\"id\":\"" + id + "\"}");
  REQUIRE(created.ok());
  REQUIRE(*created == CreateOutcome::kCreated);
}

using O = RecordOutcome;

}  // namespace

TEST_CASE_TEMPLATE("Storage: a batch gets one outcome per report: stored, token used, deleted, closed", Store, SqliteStore, PostgresStore) {
  Store store;
  auto storage = store.Open();
  for (const char* id : {"open", "invited", "gone", "shut", "later"}) Create(*storage, id);
  REQUIRE(storage->DeleteSurvey("gone").ok());
  REQUIRE(storage->SetStatus({"shut", true, ""}).ok());
  REQUIRE(storage->SetStatus({"later", false, "2999-01-01T00:00:00Z"}).ok());

  // t1 twice in one batch: stored once.
  const std::vector<ReportRecord> batch = {
      Open("open", "a"), Invited("invited", "b", "t1"), Invited("invited", "c", "t1"), Open("gone", "e"),
      Open("shut", "f"), Open("later", "g")};
  CHECK(Commit(*storage, batch) ==
        std::vector<O>{O::kStored, O::kStored, O::kTokenUsed, O::kSurveyDeleted, O::kSurveyClosed, O::kStored});
  // The token is spent: sent again in a later batch, it is refused a second time.
  CHECK(Commit(*storage, {Invited("invited", "h", "t1"), Invited("invited", "i", "t2")}) ==
        std::vector<O>{O::kTokenUsed, O::kStored});
  // A token is spent per survey: the same hash for another survey is another token.
  CHECK(Commit(*storage, {Invited("open", "j", "t1")}) == std::vector<O>{O::kStored});

  CHECK(BodiesOf(*storage, "open") == std::vector<std::string>{"a", "j"});
  CHECK(BodiesOf(*storage, "invited") == std::vector<std::string>{"b", "i"});
  CHECK(BodiesOf(*storage, "shut").empty());
  // Invitation reports are stored like every report, each with its token's hash, and nothing else.
  CHECK(store.Count("SELECT COUNT(*) FROM reports") == 5);
  CHECK(store.Count("SELECT COUNT(*) FROM spent_tokens") == 3);
  if (Store::kSqlite) CHECK(store.Count("SELECT COUNT(*) FROM sqlite_master WHERE name = 'sealed_reports'") == 0);

  // A closing time in the past refuses reports like a close.
  REQUIRE(storage->SetStatus({"later", false, "2000-01-01T00:00:00Z"}).ok());
  CHECK(Commit(*storage, {Open("later", "j")}) == std::vector<O>{O::kSurveyClosed});
}

TEST_CASE_TEMPLATE("Storage: a token is spent by exactly one report under concurrent batches", Store, SqliteStore, PostgresStore) {
  Store store;
  auto storage = store.Open();
  Create(*storage, "invited");
  std::vector<std::thread> threads;
  std::vector<int> stored(8, 0);
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&, t] {
      for (int k = 0; k < 20; ++k) {
        const std::vector<ReportRecord> batch = {Invited("invited", "r", "t" + std::to_string(k))};
        auto outcomes = storage->CommitReports(Pointers(batch), nullptr);
        if (outcomes.ok() && (*outcomes)[0] == O::kStored) ++stored[t];
      }
    });
  }
  for (auto& thread : threads) thread.join();
  int total = 0;
  for (int count : stored) total += count;
  CHECK(total == 20);
  CHECK(BodiesOf(*storage, "invited").size() == 20);
}

TEST_CASE_TEMPLATE("Storage: admission sees only the reports whose tokens are unspent, in batch order", Store, SqliteStore, PostgresStore) {
  Store store;
  auto storage = store.Open();
  Create(*storage, "model");
  Create(*storage, "invited");
  CHECK(Commit(*storage, {Invited("invited", "x", "spent")}) == std::vector<O>{O::kStored});
  std::vector<std::size_t> seen;
  const BatchAdmission admit = [&](const std::vector<std::size_t>& candidates) {
    seen = candidates;
    std::vector<bool> verdicts(candidates.size(), true);
    verdicts[1] = false;  // the second candidate (batch index 2): its round is full
    return verdicts;
  };
  const std::vector<ReportRecord> batch = {Open("model", "a"), Invited("invited", "b", "spent"), Open("model", "c"),
                                           Invited("invited", "d", "t1")};
  CHECK(Commit(*storage, batch, admit) == std::vector<O>{O::kStored, O::kTokenUsed, O::kNotAdmitted, O::kStored});
  CHECK(seen == std::vector<std::size_t>{0, 2, 3});
  CHECK(BodiesOf(*storage, "model") == std::vector<std::string>{"a"});
  // A report refused by admission spends no token.
  const auto refuse_all = [](const std::vector<std::size_t>& c) { return std::vector<bool>(c.size(), false); };
  CHECK(Commit(*storage, {Invited("invited", "e", "t2")}, refuse_all) == std::vector<O>{O::kNotAdmitted});
  CHECK(Commit(*storage, {Invited("invited", "e", "t2")}) == std::vector<O>{O::kStored});
}

TEST_CASE_TEMPLATE("Storage: a code is exchanged for one blinded element, durably; the same element again is a retry", Store, SqliteStore, PostgresStore) {
  Store store;
  auto storage = store.Open();
  Create(*storage, "invited");
  Create(*storage, "other");
  REQUIRE(storage->AddInvitations("invited", {"c1", "c2"}).ok());
  using I = IssueOutcome;
  CHECK(*storage->SpendInvitationForToken("invited", "c1", "b1") == I::kSpent);
  CHECK(*storage->SpendInvitationForToken("invited", "c1", "b1") == I::kRepeated);
  CHECK(*storage->SpendInvitationForToken("invited", "c1", "b2") == I::kRejected);
  CHECK(*storage->SpendInvitationForToken("invited", "unknown", "b3") == I::kRejected);
  CHECK(*storage->SpendInvitationForToken("other", "c2", "b3") == I::kRejected);  // another survey's code
  CHECK(storage->CountInvitations("invited")->used == 1);
  CHECK(*storage->InvitationUnused("invited", "c2"));
  CHECK_FALSE(*storage->InvitationUnused("invited", "c1"));

  // Committed before it returned: a second connection (another node, or after a crash) sees it.
  storage.reset();
  storage = store.Open();
  CHECK(*storage->SpendInvitationForToken("invited", "c1", "b2") == I::kRejected);
  CHECK(*storage->SpendInvitationForToken("invited", "c1", "b1") == I::kRepeated);

  // Closed: nothing spent; deleted: nothing spent.
  REQUIRE(storage->SetStatus({"invited", true, ""}).ok());
  CHECK(*storage->SpendInvitationForToken("invited", "c2", "b4") == I::kSurveyClosed);
  REQUIRE(storage->SetStatus({"invited", false, ""}).ok());
  CHECK(*storage->InvitationUnused("invited", "c2"));

  // Twenty threads, twenty different elements for one code: one is spent.
  std::vector<std::thread> threads;
  std::vector<I> outcomes(20);
  for (int t = 0; t < 20; ++t) {
    threads.emplace_back([&, t] { outcomes[t] = *storage->SpendInvitationForToken("invited", "c2", "e" + std::to_string(t)); });
  }
  for (auto& thread : threads) thread.join();
  CHECK(std::count(outcomes.begin(), outcomes.end(), I::kSpent) == 1);
  CHECK(std::count(outcomes.begin(), outcomes.end(), I::kRejected) == 19);

  REQUIRE(storage->DeleteSurvey("invited").ok());
  CHECK(*storage->SpendInvitationForToken("invited", "c2", "e0") == I::kSurveyDeleted);
}

TEST_CASE_TEMPLATE("Storage: a survey's key is stored with it, or created once for a survey that has none", Store, SqliteStore, PostgresStore) {
  Store store;
  auto storage = store.Open();
  const std::string key(32, '\x07');
  REQUIRE(*storage->CreateSurvey("keyed", 1, "{}", key) == CreateOutcome::kCreated);
  int made = 0;
  const auto fresh = [&] {
    ++made;
    return std::string(32, '\0') + std::to_string(made);
  };
  CHECK(*storage->LoadOrCreateSurveyKey("keyed", fresh) == key);
  CHECK(made == 0);
  // A survey created before keys gets one, once; reopened, the same one.
  Create(*storage, "older");
  const std::string first = *storage->LoadOrCreateSurveyKey("older", fresh);
  CHECK(*storage->LoadOrCreateSurveyKey("older", fresh) == first);
  storage.reset();
  storage = store.Open();
  CHECK(*storage->LoadOrCreateSurveyKey("older", fresh) == first);
  CHECK(made == 1);
  // An id that exists already keeps its key: the second creation stores nothing.
  REQUIRE(*storage->CreateSurvey("keyed", 1, "{}", std::string(32, '\x09')) == CreateOutcome::kExists);
  CHECK(*storage->LoadOrCreateSurveyKey("keyed", fresh) == key);
  // Deleted: the key is gone, and none is made again.
  REQUIRE(storage->DeleteSurvey("keyed").ok());
  CHECK(storage->LoadOrCreateSurveyKey("keyed", fresh).error_code() == ErrorCode::kNotFound);
  CHECK(store.Count("SELECT COUNT(*) FROM survey_keys WHERE survey_id = 'keyed'") == 0);
}

TEST_CASE_TEMPLATE("Storage: a deleted survey's id is never reused; a second deletion is kNotFound", Store, SqliteStore, PostgresStore) {
  Store store;
  auto storage = store.Open();
  Create(*storage, "doomed");
  REQUIRE(*storage->CreateSurvey("doomed-keyed", 1, "{}", std::string(32, 'k')) == CreateOutcome::kCreated);
  REQUIRE(storage->AddInvitations("doomed", {"h1", "h2"}).ok());
  REQUIRE(*storage->SpendInvitationForToken("doomed", "h1", "b1") == IssueOutcome::kSpent);
  CHECK(Commit(*storage, {Invited("doomed", "a", "t1")}) == std::vector<O>{O::kStored});
  Create(*storage, "other");
  CHECK(Commit(*storage, {Open("other", "x"), Open("other", "y")}) == std::vector<O>{O::kStored, O::kStored});

  auto deleted = storage->DeleteSurvey("doomed");
  REQUIRE(deleted.ok());
  CHECK(*deleted == 1);
  auto again = storage->DeleteSurvey("doomed");
  REQUIRE_FALSE(again.ok());
  CHECK(again.error_code() == ErrorCode::kNotFound);
  auto recreated = storage->CreateSurvey("doomed", 1, "{}");
  REQUIRE(recreated.ok());
  CHECK(*recreated == CreateOutcome::kDeleted);
  auto existing = storage->CreateSurvey("other", 1, "{}");
  REQUIRE(existing.ok());
  CHECK(*existing == CreateOutcome::kExists);
  CHECK(*storage->WasDeleted("doomed"));
  CHECK_FALSE(*storage->WasDeleted("other"));
  CHECK(storage->CountInvitations("doomed")->total == 0);
  CHECK(BodiesOf(*storage, "doomed").empty());
  CHECK(store.Count("SELECT COUNT(*) FROM spent_tokens WHERE survey_id = 'doomed'") == 0);
  REQUIRE(storage->DeleteSurvey("doomed-keyed").ok());
  CHECK(store.Count("SELECT COUNT(*) FROM survey_keys") == 0);
  CHECK(BodiesOf(*storage, "other").size() == 2);

  // Reopened, the id is still refused.
  storage.reset();
  storage = store.Open();
  CHECK(*storage->CreateSurvey("doomed", 1, "{}") == CreateOutcome::kDeleted);
}

TEST_CASE_TEMPLATE("Storage: a ledger is read, updated and stored under the store's lock", Store, SqliteStore, PostgresStore) {
  Store store;
  auto storage = store.Open();
  Create(*storage, "s");
  std::optional<std::string> seen = "unset";
  REQUIRE(storage->UpdateLedger("s", "q", [&](const std::optional<std::string>& stored) -> Result<std::string> {
    seen = stored;
    return std::string("L1");
  }).ok());
  CHECK_FALSE(seen.has_value());
  REQUIRE(storage->UpdateLedger("s", "q", [&](const std::optional<std::string>& stored) -> Result<std::string> {
    seen = stored;
    return MakeError("changed since", ErrorCode::kConflict);
  }).error_code() == ErrorCode::kConflict);
  CHECK(seen == std::optional<std::string>("L1"));
  auto state = storage->LoadState();
  REQUIRE(state.ok());
  REQUIRE(state->ledgers.size() == 1);
  CHECK(state->ledgers[0].ledger == "L1");  // the refused update stored nothing

  // Read-modify-write from two threads: no update is lost.
  auto increment = [&] {
    for (int i = 0; i < 100; ++i) {
      REQUIRE(storage->UpdateLedger("s", "count", [](const std::optional<std::string>& stored) -> Result<std::string> {
        return std::to_string(stored ? std::stoi(*stored) + 1 : 1);
      }).ok());
    }
  };
  std::thread other(increment);
  increment();
  other.join();
  state = storage->LoadState();
  REQUIRE(state.ok());
  REQUIRE(state->ledgers.size() == 2);
  CHECK(state->ledgers[0].question_id == "count");
  CHECK(state->ledgers[0].ledger == "200");

  REQUIRE(storage->DeleteSurvey("s").ok());
  bool called = false;
  const Status refused = storage->UpdateLedger("s", "q", [&](const std::optional<std::string>&) -> Result<std::string> {
    called = true;
    return std::string("L2");
  });
  CHECK(refused.error_code() == ErrorCode::kNotFound);
  CHECK_FALSE(called);
}

TEST_CASE_TEMPLATE("Storage: ForEachReportOf reads in chunks, lets the store work between them, and stops with kCancelled", Store, SqliteStore, PostgresStore) {
  Store store;
  auto storage = store.Open();
  Create(*storage, "s");
  Create(*storage, "t");
  std::vector<ReportRecord> batch;
  for (int i = 0; i < 5; ++i) batch.push_back(Open("s", "r" + std::to_string(i)));
  batch.push_back(Open("t", "other"));
  Commit(*storage, batch);

  std::vector<std::string> bodies;
  int checks = 0;
  const auto visit = [&](const std::string& body) {
    bodies.push_back(body);
    CHECK(storage->WasDeleted("s").ok());  // the lock is not held while visiting (this would deadlock)
  };
  REQUIRE(storage->ForEachReportOf("s", visit, [&] { return ++checks > 99; }, 2).ok());
  CHECK(bodies == std::vector<std::string>{"r0", "r1", "r2", "r3", "r4"});
  CHECK(checks == 3);  // before chunks of 2, 2 and 1

  bodies.clear();
  checks = 0;
  const Status cancelled = storage->ForEachReportOf("s", visit, [&] { return ++checks > 1; }, 2);
  REQUIRE_FALSE(cancelled.ok());
  CHECK(cancelled.error_code() == ErrorCode::kCancelled);
  CHECK(bodies == std::vector<std::string>{"r0", "r1"});
}

TEST_CASE_TEMPLATE("Storage: start-up reads surveys, statuses, ledgers and every report back", Store, SqliteStore, PostgresStore) {
  Store store;
  {
    auto storage = store.Open();
    Create(*storage, "b");
    Create(*storage, "a");
    REQUIRE(storage->AddInvitations("a", {"h"}).ok());
    REQUIRE(storage->SetStatus({"b", true, ""}).ok());
    REQUIRE(storage->SetStatus({"a", false, "2999-01-01T00:00:00Z"}).ok());
    REQUIRE(storage->UpdateLedger("a", "q", [](const auto&) -> Result<std::string> { return std::string("{}"); }).ok());
    Commit(*storage, {Invited("a", "invited", "t")});
    REQUIRE(storage->SetStatus({"b", false, ""}).ok());
    Commit(*storage, {Open("b", "open1"), Open("b", "open2")});
    REQUIRE(storage->SetStatus({"b", true, ""}).ok());
  }
  auto storage = store.Open();
  auto state = storage->LoadState();
  REQUIRE(state.ok());
  REQUIRE(state->surveys.size() == 2);
  CHECK(state->surveys[0].id == "a");
  CHECK(state->surveys[0].definition == "{\"id\":\"a\"}");
  CHECK(state->surveys[1].id == "b");
  REQUIRE(state->statuses.size() == 2);
  for (const StoredStatus& status : state->statuses) {
    if (status.survey_id == "a") {
      CHECK_FALSE(status.closed);
      CHECK(status.closes_at == "2999-01-01T00:00:00Z");
    } else {
      CHECK(status.survey_id == "b");
      CHECK(status.closed);
      CHECK(status.closes_at.empty());
    }
  }
  REQUIRE(state->ledgers.size() == 1);
  CHECK(state->ledgers[0].survey_id == "a");
  CHECK(state->ledgers[0].question_id == "q");
  std::vector<std::string> all;
  REQUIRE(storage->ForEachReport([&](const std::string& id, const std::string& body) { all.push_back(id + ":" + body); })
              .ok());
  CHECK(all == std::vector<std::string>{"a:invited", "b:open1", "b:open2"});
}

TEST_CASE("SqliteStorage: files are private, and a database replaced under the server takes no writes (kUnavailable)") {
  TempDir dir;
  auto storage = OpenIn(dir);
  Create(*storage, "s");
  for (const std::string name : {"deniable.sqlite3", "deniable.sqlite3-wal"}) {
    struct stat info {};
    REQUIRE(::stat(dir.File(name).c_str(), &info) == 0);
    CHECK((info.st_mode & 0777) == 0600);
  }
  REQUIRE(std::rename(dir.File("deniable.sqlite3").c_str(), dir.File("moved.sqlite3").c_str()) == 0);
  CHECK(Commit(*storage, {Open("s", "a")}) == std::vector<O>{O::kUnavailable});
  CHECK(storage->SetStatus({"s", true, ""}).error_code() == ErrorCode::kUnavailable);
  CHECK(storage->CreateSurvey("t", 1, "{}").error_code() == ErrorCode::kUnavailable);
}

TEST_CASE("SqliteStorage: the admin token is created once, kept 0600, and checked when read") {
  TempDir dir;
  auto storage = OpenIn(dir);
  int made = 0;
  const auto fresh = [&] { return "token" + std::to_string(++made); };
  const auto valid = [](const std::string& token) {
    return token.rfind("token", 0) == 0 ? OkStatus() : Status(MakeError("not a token"));
  };
  CHECK(*storage->LoadOrCreateAdminToken(fresh, valid) == "token1");
  CHECK(*storage->LoadOrCreateAdminToken(fresh, valid) == "token1");
  CHECK(made == 1);
  struct stat info {};
  REQUIRE(::stat(dir.File("admin-token").c_str(), &info) == 0);
  CHECK((info.st_mode & 0777) == 0600);
  std::FILE* file = std::fopen(dir.File("admin-token").c_str(), "w");
  std::fputs("garbage\n", file);
  std::fclose(file);
  auto refused = storage->LoadOrCreateAdminToken(fresh, valid);
  REQUIRE_FALSE(refused.ok());
  CHECK(refused.error() == dir.File("admin-token") + ": not a token");
}

}  // namespace deniable::server
