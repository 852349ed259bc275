// The survey aggregates a server serves are the stored shards' (storage.h,
// "aggregates shared by nodes"; SurveyEntry): a start-up from the shards
// serves the same documents, byte for byte, as a replay of every report, for
// each kind (the conformance fixtures, testdata/kinds/); the migration to
// schema 7 builds the shards a replay gives; two nodes (two SqliteStorage on
// one file, each with its registry entry and writer) admit exactly a model
// round's batch, each deciding against the global state in its commit, and
// neither serves a document the other's commit made stale.
#include <doctest/doctest.h>

#include <condition_variable>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/common/seeded_random.h"
#include "core/survey/aggregate_format.h"
#include "core/survey/report.h"
#include "core/survey/results.h"
#include "server/storage/sqlite_migrations.h"
#include "server/storage/sqlite_storage.h"
#include "server/surveys/report_writer.h"
#include "server/surveys/survey_catalog.h"
#include "server/surveys/survey_registry.h"
#include "storage/store_fixtures.h"
#include "storage/temp_dir.h"

namespace deniable::server {
namespace {

using nlohmann::json;

std::unique_ptr<SqliteStorage> OpenIn(const TempDir& dir) {
  auto storage = SqliteStorage::Open(dir.File("deniable.sqlite3"));
  REQUIRE_MESSAGE(storage.ok(), (storage.ok() ? "" : storage.error()));
  return std::move(storage).value();
}

json ReadFixture(const std::string& kind) {
  std::ifstream in(std::filesystem::path(DENIABLE_SOURCE_DIR) / "testdata" / "kinds" / (kind + ".json"));
  std::stringstream text;
  text << in.rdbuf();
  return json::parse(text.str());
}

Survey FixtureSurvey(const json& fixture) {
  auto survey = ParseSurvey({{"format", kSurveyFormat}, {"id", "kind-" + fixture.at("type").get<std::string>()},
                             {"version", 1}, {"title", "Shards"}, {"questions", fixture.at("questions")}});
  REQUIRE_MESSAGE(survey.ok(), (survey.ok() ? "" : survey.error()));
  return *survey;
}

// `count` wire reports from the answers in turn; a model's answer carries the state so far, as the page's does.
std::vector<json> MakeWire(const Survey& survey, const json& answers, int count, std::uint64_t seed) {
  SeededRandom random(seed);
  SurveyAggregate so_far(survey);
  std::vector<json> wires;
  for (int i = 0; i < count; ++i) {
    const json stated = WithPublicStates(survey, so_far, answers[static_cast<std::size_t>(i) % answers.size()]);
    auto wire = PerturbAnswers(survey, stated, random);
    REQUIRE_MESSAGE(wire.ok(), (wire.ok() ? "" : wire.error()));
    auto report = ParseReport(survey, *wire);
    REQUIRE_MESSAGE(report.ok(), (report.ok() ? "" : report.error()));
    so_far.Add(*report);
    wires.push_back(*wire);
  }
  return wires;
}

// Submits the reports to the writer and waits for every outcome.
std::vector<SubmitOutcome> SubmitAll(ReportWriter& writer, const std::shared_ptr<SurveyEntry>& entry,
                                     const std::vector<json>& wires) {
  std::mutex mutex;
  std::condition_variable done;
  std::vector<SubmitOutcome> outcomes(wires.size(), SubmitOutcome::kStorageFailed);
  std::size_t pending = wires.size();
  for (std::size_t i = 0; i < wires.size(); ++i) {
    auto report = ParseReport(entry->survey(), wires[i]);
    REQUIRE(report.ok());
    writer.SubmitAsync(PendingReport{entry, std::move(report).value(), {entry->id(), wires[i].dump(), std::nullopt}},
                       [&, i](SubmitOutcome outcome) {
                         std::lock_guard<std::mutex> lock(mutex);
                         outcomes[i] = outcome;
                         if (--pending == 0) done.notify_all();
                       });
  }
  std::unique_lock<std::mutex> lock(mutex);
  REQUIRE(done.wait_for(lock, std::chrono::seconds(20), [&] { return pending == 0; }));
  return outcomes;
}

std::string DefaultResults(SurveyEntry& entry) {
  EstimationLimits limits;
  EstimationRequester admin;
  admin.trusted = true;
  auto lookup = entry.Results({json::object(), DefaultEstimateOptionsKey()}, limits, admin);
  REQUIRE_MESSAGE(lookup.ok(), (lookup.ok() ? "" : lookup.error()));
  return lookup->document->dump();
}

// The documents of an entry that counted every report itself, one by one: what a start-up replay served.
std::shared_ptr<SurveyEntry> Replayed(const Survey& survey, const std::vector<json>& wires) {
  auto entry = std::make_shared<SurveyEntry>(survey);
  for (const json& wire : wires) entry->AddReport(*ParseReport(survey, wire));
  return entry;
}

const char* const kKinds[] = {"categorical", "numeric", "histogram", "block", "linear_regression", "grid"};

}  // namespace

TEST_CASE("A start-up from the shards serves each kind's documents byte for byte as a replay of every report") {
  for (const char* kind : kKinds) {
    CAPTURE(kind);
    const json fixture = ReadFixture(kind);
    const Survey survey = FixtureSurvey(fixture);
    const std::vector<json> wires = MakeWire(survey, fixture.at("answers"), 60, 7);
    TempDir dir;
    {
      auto storage = OpenIn(dir);
      SurveyRegistry registry;
      auto created = CreateSurvey(*storage, registry, survey);
      REQUIRE(created.ok());
      ReportWriter writer(*storage, /*max_batch=*/7);  // several commits, several extensions of the shard
      for (std::size_t from = 0; from < wires.size(); from += 13) {
        const std::vector<json> part(wires.begin() + from, wires.begin() + std::min(wires.size(), from + 13));
        for (SubmitOutcome outcome : SubmitAll(writer, created->entry, part)) CHECK(outcome == SubmitOutcome::kCommitted);
      }
    }
    auto storage = OpenIn(dir);
    SurveyRegistry registry;
    std::ostringstream warnings;
    auto loaded = LoadCatalog(*storage, registry, warnings);
    REQUIRE_MESSAGE(loaded.ok(), (loaded.ok() ? "" : loaded.error()));
    CHECK(loaded->reports == 60);
    CHECK(warnings.str().empty());
    auto from_shards = registry.Find(survey.id);
    REQUIRE(from_shards != nullptr);
    auto replayed = Replayed(survey, wires);
    CHECK(from_shards->respondents() == 60);
    CHECK(DefaultResults(*from_shards) == DefaultResults(*replayed));
    CHECK(from_shards->PublicStates().dump() == replayed->PublicStates().dump());
  }
}

TEST_CASE("The migration to schema 7 builds each survey's shard as a replay of its stored reports") {
  for (const char* kind : kKinds) {
    CAPTURE(kind);
    const json fixture = ReadFixture(kind);
    const Survey survey = FixtureSurvey(fixture);
    const std::vector<json> wires = MakeWire(survey, fixture.at("answers"), 25, 11);
    TempDir dir;
    const std::string path = dir.File("deniable.sqlite3");
    {
      auto opened = SqliteDatabase::Open(path);
      REQUIRE(opened.ok());
      SqliteDatabase db = std::move(opened).value();
      REQUIRE(MigrateSqlite(db, 6).ok());  // a file of schema 6: reports, no shards
      auto run = [&](const std::string& sql, const std::string& first, const std::string& second) {
        auto prepared = db.Prepare(sql);
        REQUIRE(prepared.ok());
        SqliteStatement statement = std::move(prepared).value();
        statement.BindText(1, first);
        statement.BindText(2, second);
        REQUIRE(statement.Step().ok());
      };
      run("INSERT INTO surveys (id, version, definition, created_at) VALUES (?1, 1, ?2, '')", survey.id,
          SurveyToJson(survey).dump());
      for (const json& wire : wires) run("INSERT INTO reports (survey_id, body) VALUES (?1, ?2)", survey.id, wire.dump());
      // A report that no longer validates is left out, as a replay left it out.
      run("INSERT INTO reports (survey_id, body) VALUES (?1, ?2)", survey.id, "{\"not\": \"a report\"}");
    }
    auto storage = OpenIn(dir);
    auto stored = storage->LoadAggregate(survey.id);
    REQUIRE(stored.ok());
    CHECK(stored->version == 1);
    REQUIRE(stored->shards.size() == 1);
    SurveyAggregate replay(survey);
    for (const json& wire : wires) replay.Add(*ParseReport(survey, wire));
    CHECK(stored->shards[0].blob == SerializeSurveyAggregate(survey, replay));
  }
}

namespace {

// A model trained in rounds of 4 reports (one chain): a report answers the round it was given.
const char* const kModelSurvey = R"({"format": "deniable.survey/v1", "id": "m", "version": 1, "title": "Model",
  "questions": [
    {"id": "hours", "text": "Hours?", "type": "numeric", "range": [0, 80], "mechanism": {"name": "piecewise", "epsilon": 1}},
    {"id": "pay", "text": "Pay?", "type": "numeric", "range": [0, 4000], "mechanism": {"name": "piecewise", "epsilon": 1}},
    {"id": "model", "text": "Pay by hours", "type": "linear_regression", "target": "pay", "features": ["hours"],
     "epsilon": 1, "batch": 4, "chains": 1}]})";

struct Node {
  std::unique_ptr<Storage> storage;
  std::shared_ptr<SurveyEntry> entry;
  std::unique_ptr<ReportWriter> writer;
};

// A node on the store (SqliteStore: two on one file; PostgresStore: two on one database).
template <typename Store>
Node StartNode(Store& store, const Survey& survey) {
  Node node{store.Open(), std::make_shared<SurveyEntry>(survey), nullptr};
  node.entry->CheckVersionsIn(node.storage.get());  // several nodes: check the stored version before serving
  REQUIRE(node.entry->RefreshFromStore().ok());
  node.writer = std::make_unique<ReportWriter>(*node.storage);
  return node;
}

std::int64_t CountOf(const std::vector<SubmitOutcome>& outcomes, SubmitOutcome wanted) {
  return std::count(outcomes.begin(), outcomes.end(), wanted);
}

}  // namespace

TEST_CASE_TEMPLATE("Two nodes racing a model round's last places admit exactly its batch, against the global state", Store, SqliteStore, PostgresStore) {
  auto survey = ParseSurveyText(kModelSurvey);
  REQUIRE_MESSAGE(survey.ok(), (survey.ok() ? "" : survey.error()));
  Store store;
  Node node_a = StartNode(store, *survey);
  REQUIRE(*node_a.storage->CreateSurvey("m", 1, SurveyToJson(*survey).dump()) == CreateOutcome::kCreated);
  Node node_b = StartNode(store, *survey);
  // Every report answers round 1 (the state of an empty aggregate), as pages that loaded it at once do.
  const json answer = {{"hours", 40}, {"pay", 1000}, {"model", {{"features", {40}}, {"target", 1000}}}};
  const std::vector<json> wires = MakeWire(*survey, json::array({answer}), 1, 3);
  auto round_one = [&](int count) { return std::vector<json>(static_cast<std::size_t>(count), wires[0]); };
  // Node a counts 3 of round 1's 4; node b has read nothing since it started.
  CHECK(CountOf(SubmitAll(*node_a.writer, node_a.entry, round_one(3)), SubmitOutcome::kCommitted) == 3);
  // Node b's two reports for round 1: one place is left, globally.
  const auto from_b = SubmitAll(*node_b.writer, node_b.entry, round_one(2));
  CHECK(CountOf(from_b, SubmitOutcome::kCommitted) == 1);
  CHECK(CountOf(from_b, SubmitOutcome::kNotAdmitted) == 1);
  // Node a's two more: the round is full.
  const auto from_a = SubmitAll(*node_a.writer, node_a.entry, round_one(2));
  CHECK(CountOf(from_a, SubmitOutcome::kNotAdmitted) == 2);
  // Both serve round 2 now, from the same global state.
  const json state_a = node_a.entry->PublicStates();
  const json state_b = node_b.entry->PublicStates();
  CHECK(state_a == state_b);
  CHECK(state_a.dump().find("\"round\":2") != std::string::npos);
  CHECK(node_a.entry->respondents() == 4);
  CHECK(node_b.entry->respondents() == 4);
  node_a.writer->Stop();
  node_b.writer->Stop();
}

TEST_CASE_TEMPLATE("A node serves no results document that another node's commit made stale", Store, SqliteStore, PostgresStore) {
  const json fixture = ReadFixture("categorical");
  const Survey survey = FixtureSurvey(fixture);
  const std::vector<json> wires = MakeWire(survey, fixture.at("answers"), 10, 5);
  Store store;
  Node node_a = StartNode(store, survey);
  REQUIRE(*node_a.storage->CreateSurvey(survey.id, 1, SurveyToJson(survey).dump()) == CreateOutcome::kCreated);
  Node node_b = StartNode(store, survey);
  SubmitAll(*node_a.writer, node_a.entry, std::vector<json>(wires.begin(), wires.begin() + 6));
  const std::string six = DefaultResults(*node_b.entry);  // b reads a's six reports from the shards
  CHECK(node_b.entry->respondents() == 6);
  CHECK(six == DefaultResults(*Replayed(survey, std::vector<json>(wires.begin(), wires.begin() + 6))));
  CHECK(DefaultResults(*node_a.entry) == six);  // cached on a
  SubmitAll(*node_b.writer, node_b.entry, std::vector<json>(wires.begin() + 6, wires.end()));
  // a's cached document is keyed by the data version it holds: b's commit moved the stored one, so a serves all ten.
  const std::string ten = DefaultResults(*node_a.entry);
  CHECK(ten == DefaultResults(*Replayed(survey, wires)));
  CHECK(ten != six);
  CHECK(node_a.entry->data_version() == node_b.entry->data_version());
  node_a.writer->Stop();
  node_b.writer->Stop();
}

}  // namespace deniable::server

namespace deniable::server {

TEST_CASE("One node writes its shard at most once a second; a start-up counts the reports after its blob") {
  json options = json::array();
  for (int i = 0; i < 3000; ++i) options.push_back("option " + std::to_string(i));  // a blob of ~7 KB
  auto parsed = ParseSurvey({{"format", kSurveyFormat}, {"id", "wide"}, {"version", 1}, {"title", "Wide"},
                             {"questions", {{{"id", "q"}, {"text", "Which?"}, {"type", "categorical"},
                                             {"options", options}, {"mechanism", {{"name", "grr"}, {"epsilon", 1}}}}}}});
  REQUIRE(parsed.ok());
  const Survey survey = *parsed;
  json answers = json::array();
  for (int i = 0; i < 50; ++i) answers.push_back({{"q", (i * 37) % 3000}});
  const std::vector<json> wires = MakeWire(survey, answers, 50, 13);
  TempDir dir;
  {
    auto storage = OpenIn(dir);
    SurveyRegistry registry;
    auto created = CreateSurvey(*storage, registry, survey);
    REQUIRE(created.ok());
    created->entry->SetLazyBlobInterval(std::chrono::hours(1));  // however slow the machine, within the interval
    ReportWriter writer(*storage);
    // Five commits within the interval: the first writes the shard, the next ones write nothing of it.
    for (int part = 0; part < 5; ++part) {
      const std::vector<json> batch(wires.begin() + part * 10, wires.begin() + part * 10 + 10);
      for (SubmitOutcome outcome : SubmitAll(writer, created->entry, batch)) CHECK(outcome == SubmitOutcome::kCommitted);
    }
    CHECK(created->entry->respondents() == 50);  // served exactly meanwhile
    auto stored = storage->LoadAggregate("wide");
    REQUIRE(stored.ok());
    REQUIRE(stored->shards.size() == 1);
    CHECK(stored->version == 1);
    auto blob = DeserializeSurveyAggregate(survey, stored->shards[0].blob);
    REQUIRE(blob.ok());
    CHECK(blob->respondents() < 50);  // the blob lags: the test shows the lazy path, not the eager one
    CHECK(stored->shards[0].through >= 1);
  }
  auto storage = OpenIn(dir);
  SurveyRegistry registry;
  std::ostringstream warnings;
  auto loaded = LoadCatalog(*storage, registry, warnings);
  REQUIRE_MESSAGE(loaded.ok(), (loaded.ok() ? "" : loaded.error()));
  auto entry = registry.Find("wide");
  REQUIRE(entry != nullptr);
  CHECK(entry->respondents() == 50);
  CHECK(DefaultResults(*entry) == DefaultResults(*Replayed(survey, wires)));
  // And it goes on from there: the next commit's blob counts all of them.
  {
    ReportWriter writer(*storage);
    SubmitAll(writer, entry, std::vector<json>(wires.begin(), wires.begin() + 1));
  }
  auto stored = storage->LoadAggregate("wide");
  REQUIRE(stored.ok());
  auto blob = DeserializeSurveyAggregate(survey, stored->shards[0].blob);
  REQUIRE(blob.ok());
  CHECK(blob->respondents() == 51);  // the first commit after a start writes the blob (nothing kept to compare)
}

}  // namespace deniable::server
