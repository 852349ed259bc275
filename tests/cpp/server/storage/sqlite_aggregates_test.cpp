// The shards of each survey's aggregate (storage.h, "aggregates shared by
// nodes") in SqliteStorage: read, extended and written in the commit's own
// transaction, so a failed commit leaves them as they were; the data version
// grows by one per commit that stored something; the caller's state is
// refreshed before admission only for the surveys that need it. The blobs
// here are plain text (the store knows no kinds): each Extend appends the
// stored bodies.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "server/storage/sqlite_storage.h"
#include "storage/store_fixtures.h"
#include "storage/temp_dir.h"

namespace deniable::server {
namespace {

std::unique_ptr<SqliteStorage> OpenIn(const TempDir& dir) {
  auto storage = SqliteStorage::Open(dir.File("deniable.sqlite3"));
  REQUIRE_MESSAGE(storage.ok(), (storage.ok() ? "" : storage.error()));
  return std::move(storage).value();
}

void Create(Storage& storage, const std::string& id) {
  REQUIRE(*storage.CreateSurvey(id, 1, "{\"id\":\"" + id + "\"}") == CreateOutcome::kCreated);
}

// Appends the stored records' bodies to the shard's text; fails for `failing`.
class TextHooks final : public AggregateHooks {
 public:
  explicit TextHooks(const std::vector<ReportRecord>& records) : records_(records) {}
  std::string failing;
  std::vector<std::string> needs_global;
  std::vector<std::string> calls;  // in order: "refresh <id> <version>", "admit", "extend <id> <version>"

  bool NeedsGlobalState(const std::string& survey_id) const override {
    return std::find(needs_global.begin(), needs_global.end(), survey_id) != needs_global.end();
  }
  Status Refresh(const std::string& survey_id, std::int64_t version,
                 const std::function<Result<StoredAggregate>()>& load) override {
    calls.push_back("refresh " + survey_id + " " + std::to_string(version));
    auto loaded = load();
    REQUIRE(loaded.ok());
    CHECK(loaded->version == version);
    return OkStatus();
  }
  Result<std::string> Extend(const std::string& survey_id, const std::optional<AggregateShard>& current,
                             std::int64_t survey_version, const std::vector<std::size_t>& stored) override {
    calls.push_back("extend " + survey_id + " " + std::to_string(survey_version));
    if (survey_id == failing) return MakeError("the shard cannot be extended", ErrorCode::kInternal);
    std::string blob = current ? current->blob : "";
    for (std::size_t i : stored) blob += records_[i].body + ";";
    return blob;
  }

 private:
  const std::vector<ReportRecord>& records_;
};

Result<std::vector<RecordOutcome>> Commit(Storage& storage, const std::vector<ReportRecord>& records, TextHooks& hooks,
                                          const BatchAdmission& admit = nullptr) {
  std::vector<const ReportRecord*> pointers;
  for (const auto& record : records) pointers.push_back(&record);
  return storage.CommitReports(pointers, admit, &hooks);
}

std::string ShardText(Storage& storage, const std::string& survey) {
  auto stored = storage.LoadAggregate(survey);
  REQUIRE(stored.ok());
  if (stored->shards.empty()) return "";
  REQUIRE(stored->shards.size() == 1);  // one node, one shard
  if (!storage.SharedByNodes()) CHECK(stored->shards[0].shard == 0);  // PostgreSQL: the node's draw
  return stored->shards[0].blob;
}

}  // namespace

TEST_CASE_TEMPLATE("Storage: each commit extends the survey's shard with what it stored, and its version by one", Store, SqliteStore, PostgresStore) {
  Store store;
  auto storage = store.Open();
  Create(*storage, "a");
  Create(*storage, "b");
  CHECK(*storage->AggregateVersion("a") == 0);
  CHECK(storage->LoadAggregate("a")->shards.empty());
  const std::vector<ReportRecord> first = {{"a", "a1", "t1"}, {"b", "b1", std::nullopt}, {"a", "a2", "t1"}};
  TextHooks hooks(first);
  auto outcomes = Commit(*storage, first, hooks);
  REQUIRE(outcomes.ok());
  CHECK(*outcomes == std::vector<RecordOutcome>{RecordOutcome::kStored, RecordOutcome::kStored, RecordOutcome::kTokenUsed});
  CHECK(ShardText(*storage, "a") == "a1;");  // the report whose token was spent is not counted
  CHECK(ShardText(*storage, "b") == "b1;");
  CHECK(*storage->AggregateVersion("a") == 1);
  const std::vector<ReportRecord> second = {{"a", "a3", std::nullopt}};
  TextHooks again(second);
  REQUIRE(Commit(*storage, second, again).ok());
  CHECK(again.calls == std::vector<std::string>{"extend a 1"});  // the version before this commit
  CHECK(ShardText(*storage, "a") == "a1;a3;");
  CHECK(*storage->AggregateVersion("a") == 2);
  CHECK(*storage->AggregateVersion("b") == 1);
  // A commit that stores nothing of a survey leaves its shard and version alone.
  REQUIRE(storage->SetStatus({"b", true, ""}).ok());
  const std::vector<ReportRecord> closed = {{"b", "b2", std::nullopt}};
  TextHooks none(closed);
  CHECK(*Commit(*storage, closed, none) == std::vector<RecordOutcome>{RecordOutcome::kSurveyClosed});
  CHECK(none.calls.empty());
  CHECK(*storage->AggregateVersion("b") == 1);
  // Deleting the survey deletes its shards.
  REQUIRE(storage->DeleteSurvey("a").ok());
  CHECK(*storage->AggregateVersion("a") == 0);
}

TEST_CASE_TEMPLATE("Storage: a commit whose shard cannot be extended stores nothing, and every shard is as it was", Store, SqliteStore, PostgresStore) {
  Store store;
  auto storage = store.Open();
  Create(*storage, "a");
  Create(*storage, "b");
  const std::vector<ReportRecord> first = {{"a", "a1", std::nullopt}, {"b", "b1", std::nullopt}};
  TextHooks hooks(first);
  REQUIRE(Commit(*storage, first, hooks).ok());
  const std::vector<ReportRecord> second = {{"a", "a2", "t"}, {"b", "b2", std::nullopt}};
  TextHooks failing(second);
  failing.failing = "b";  // a's shard is extended first, in the same transaction
  auto outcomes = Commit(*storage, second, failing);
  REQUIRE_FALSE(outcomes.ok());
  CHECK(failing.calls == std::vector<std::string>{"extend a 1", "extend b 1"});
  CHECK(ShardText(*storage, "a") == "a1;");
  CHECK(ShardText(*storage, "b") == "b1;");
  CHECK(*storage->AggregateVersion("a") == 1);
  std::vector<std::string> bodies;
  REQUIRE(storage->ForEachReportOf("a", [&](const std::string& body) { bodies.push_back(body); }).ok());
  CHECK(bodies == std::vector<std::string>{"a1"});
  // The token was not spent either: the same report goes in now.
  TextHooks retry(second);
  CHECK(*Commit(*storage, second, retry) == std::vector<RecordOutcome>{RecordOutcome::kStored, RecordOutcome::kStored});
  CHECK(ShardText(*storage, "a") == "a1;a2;");
}

TEST_CASE_TEMPLATE("Storage: the state is refreshed before admission, only for the surveys that need it", Store, SqliteStore, PostgresStore) {
  Store store;
  auto storage = store.Open();
  Create(*storage, "model");
  Create(*storage, "plain");
  const std::vector<ReportRecord> records = {{"plain", "p", std::nullopt}, {"model", "m1", std::nullopt},
                                             {"model", "m2", std::nullopt}};
  TextHooks hooks(records);
  hooks.needs_global = {"model"};
  const BatchAdmission admit = [&](const std::vector<std::size_t>& candidates) {
    hooks.calls.push_back("admit");
    return std::vector<bool>{true, true, false};  // m2 is refused: nothing of it counted
  };
  REQUIRE(Commit(*storage, records, hooks, admit).ok());
  CHECK(hooks.calls == std::vector<std::string>{"refresh model 0", "admit", "extend model 0", "extend plain 0"});
  CHECK(ShardText(*storage, "model") == "m1;");
}

TEST_CASE("SqliteStorage: two stores on one file (two nodes) extend the shard in turn, each over the other's") {
  TempDir dir;
  auto node_a = OpenIn(dir);
  auto node_b = OpenIn(dir);
  Create(*node_a, "s");
  const std::vector<ReportRecord> from_a = {{"s", "a", std::nullopt}};
  const std::vector<ReportRecord> from_b = {{"s", "b", std::nullopt}};
  TextHooks hooks_a(from_a), hooks_b(from_b);
  REQUIRE(Commit(*node_a, from_a, hooks_a).ok());
  REQUIRE(Commit(*node_b, from_b, hooks_b).ok());
  CHECK(hooks_b.calls == std::vector<std::string>{"extend s 1"});
  CHECK(ShardText(*node_a, "s") == "a;b;");
  CHECK(*node_a->AggregateVersion("s") == 2);
}

}  // namespace deniable::server
