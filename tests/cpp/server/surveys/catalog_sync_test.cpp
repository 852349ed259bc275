// Two server nodes on one store (two connections to one SQLite file, or two
// pools on one PostgreSQL database, each with its own registry): what node A changes reaches node B's registry by
// SyncCatalog (created with its key and reports, closed, ledger replaced,
// deleted), B's own newer changes are not undone, and B's poller applies A's
// changes within a second (server/surveys/catalog_sync.h).
#include <chrono>
#include <future>
#include <sstream>
#include <thread>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include "core/common/os_random.h"
#include "core/survey/report.h"
#include "server/surveys/catalog_sync.h"
#include "server/surveys/report_writer.h"
#include "server/surveys/survey_catalog.h"
#include "storage/store_fixtures.h"

namespace deniable::server {
namespace {

const char* const kConfidential = R"({"format": "deniable.survey/v1", "id": "conf", "version": 1,
  "title": "In confidence", "results": "public", "access": "open", "questions": [{"id": "q", "text": "Which?",
  "type": "categorical", "options": ["a", "b"], "privacy": "central", "budget": 1}]})";
const char* const kInvited = R"({"format": "deniable.survey/v1", "id": "inv", "version": 1, "title": "Invited",
  "results": "public", "access": "invitation", "questions": [{"id": "q", "text": "Pick", "options": ["a", "b"],
  "mechanism": {"name": "grr", "epsilon": 1}}]})";

struct Node {
  std::unique_ptr<Storage> storage;
  SurveyRegistry registry;
};

// A node on the store (each Open is another connection: another node).
template <typename Store>
std::unique_ptr<Node> OpenNode(Store& store) {
  auto node = std::make_unique<Node>();
  node->storage = store.Open();
  if (node->storage->SharedByNodes()) node->registry.CheckVersionsIn(node->storage.get());
  return node;
}

Survey Parsed(const char* text) {
  auto survey = ParseSurveyText(text);
  REQUIRE_MESSAGE(survey.ok(), (survey.ok() ? "" : survey.error()));
  return *survey;
}

SyncSummary Sync(Node& node) {
  std::ostringstream warnings;
  auto synced = SyncCatalog(*node.storage, node.registry, warnings);
  REQUIRE_MESSAGE(synced.ok(), (synced.ok() ? "" : synced.error()));
  CHECK(warnings.str() == "");
  return *synced;
}

PersistLedger SaveTo(Storage& storage, const std::string& survey_id) {
  return [&storage, survey_id](const std::string& question_id, const LedgerUpdate& update) {
    return storage.UpdateLedger(survey_id, question_id, update);
  };
}

// One stored report answering `option`, committed by the node's writer (with its aggregate shard).
void Answer(Node& node, const std::string& survey_id, int option) {
  const auto entry = node.registry.Find(survey_id);
  REQUIRE(entry);
  const nlohmann::json body = {{"survey", survey_id}, {"version", 1}, {"responses", {{"q", option}}}};
  auto report = ParseReport(entry->survey(), body);
  REQUIRE_MESSAGE(report.ok(), (report.ok() ? "" : report.error()));
  std::promise<SubmitOutcome> outcome;
  {
    ReportWriter writer(*node.storage);
    writer.SubmitAsync(PendingReport{entry, std::move(report).value(), {survey_id, body.dump(), std::nullopt}},
                       [&outcome](SubmitOutcome done) { outcome.set_value(done); });
  }  // the writer commits what is queued before it stops
  REQUIRE(outcome.get_future().get() == SubmitOutcome::kCommitted);
}

}  // namespace

TEST_CASE_TEMPLATE("SyncCatalog: a survey created, closed, released from and deleted on node A reaches node B", Store,
                   SqliteStore, PostgresStore) {
  Store store;
  auto a = OpenNode(store);
  auto b = OpenNode(store);
  CHECK_FALSE(Sync(*b).changed());

  // Created on A, with a report already stored: B registers it with its reports, and the invitation survey with
  // the same blind-token key.
  REQUIRE(CreateSurvey(*a->storage, a->registry, Parsed(kConfidential))->outcome == CreateOutcome::kCreated);
  REQUIRE(CreateSurvey(*a->storage, a->registry, Parsed(kInvited))->outcome == CreateOutcome::kCreated);
  Answer(*a, "conf", 1);
  CHECK(Sync(*b).added == 2);
  REQUIRE(b->registry.Find("conf"));
  CHECK(b->registry.Find("conf")->respondents() == 1);
  const auto key_a = a->registry.Find("inv")->token_key();
  const auto key_b = b->registry.Find("inv")->token_key();
  REQUIRE(key_a);
  REQUIRE(key_b);
  CHECK(key_a->public_key == key_b->public_key);
  CHECK_FALSE(Sync(*b).changed());  // nothing more to apply

  // Closed on A.
  REQUIRE(a->storage->SetStatus({"conf", true, ""}).ok());
  const SyncSummary closed = Sync(*b);
  CHECK(closed.statuses == 1);
  CHECK(b->registry.Find("conf")->status().closed);
  CHECK(b->registry.Find("conf")->ClosedReason(NowSeconds()));

  // A release on A: B serves A's ledger.
  ReleaseRequest request;
  request.epsilon = 0.4;
  OsRandom random;
  auto made = a->registry.Find("conf")->Release("q", request, std::nullopt, random, "2026-11-28T00:00:00Z",
                                                SaveTo(*a->storage, "conf"));
  REQUIRE(std::holds_alternative<LedgerRelease>(made));
  const SyncSummary released = Sync(*b);
  CHECK(released.ledgers == 1);
  REQUIRE(released.ledgers_changed.size() == 1);
  CHECK(b->registry.Find("conf")->Ledger("q")->ToJson() == a->registry.Find("conf")->Ledger("q")->ToJson());

  // Deleted on A: B removes it, and never registers that id again.
  REQUIRE(a->storage->DeleteSurvey("conf").ok());
  a->registry.Remove("conf");
  CHECK(Sync(*b).removed == 1);
  CHECK_FALSE(b->registry.Find("conf"));
  CHECK_FALSE(b->registry.Add(std::make_shared<SurveyEntry>(Parsed(kConfidential))));
}

TEST_CASE("SyncCatalog: a node's own change made after the sync read the store is not undone") {
  SqliteStore store;
  auto a = OpenNode(store);
  REQUIRE(CreateSurvey(*a->storage, a->registry, Parsed(kConfidential))->outcome == CreateOutcome::kCreated);
  auto entry = a->registry.Find("conf");
  // The sync read the store at generation g; this node then closed the survey (the store says open as read).
  const std::uint64_t seen = entry->status_generation();
  entry->SetStatus({true, ""});
  CHECK_FALSE(entry->ApplyStoredStatus({false, ""}, seen));
  CHECK(entry->status().closed);
  // With no change since, the stored status is applied.
  CHECK(entry->ApplyStoredStatus({false, ""}, entry->status_generation()));
  CHECK_FALSE(entry->status().closed);

  ReleaseLedger stored(1.0);
  const std::uint64_t ledgers_seen = entry->ledgers_generation();
  REQUIRE(entry->RestoreLedger("q", ReleaseLedger(1.0)).ok());  // a local change
  ReleaseRequest request;
  request.epsilon = 0.2;
  REQUIRE(stored.Schedule({"", request, 5, "2026-11-28T00:00:00Z"}).ok());
  CHECK_FALSE(*entry->ApplyStoredLedger("q", stored, ledgers_seen));
  CHECK(entry->Ledger("q")->scheduled().empty());
  CHECK(*entry->ApplyStoredLedger("q", stored, entry->ledgers_generation()));
  CHECK(entry->Ledger("q")->scheduled().size() == 1);

  // A survey deleted here is not brought back by a sync that read it before the deletion.
  a->registry.Remove("conf");
  CHECK_FALSE(a->registry.Add(std::make_shared<SurveyEntry>(Parsed(kConfidential))));
}

TEST_CASE_TEMPLATE("CatalogPoller: node B sees node A's new, closed and deleted survey within a second", Store,
                   SqliteStore, PostgresStore) {
  Store store;
  auto a = OpenNode(store);
  auto b = OpenNode(store);
  CatalogPoller poller(*b->storage, b->registry, [](SurveyEntry&) {}, std::chrono::milliseconds(100));
  const auto within_a_second = [](const std::function<bool()>& seen) {
    const auto start = std::chrono::steady_clock::now();
    while (!seen()) {
      if (std::chrono::steady_clock::now() - start > std::chrono::seconds(1)) return false;
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return true;
  };
  REQUIRE(CreateSurvey(*a->storage, a->registry, Parsed(kConfidential))->outcome == CreateOutcome::kCreated);
  CHECK(within_a_second([&] { return b->registry.Find("conf") != nullptr; }));
  REQUIRE(a->storage->SetStatus({"conf", true, ""}).ok());
  CHECK(within_a_second([&] { return b->registry.Find("conf") && b->registry.Find("conf")->status().closed; }));
  REQUIRE(a->storage->DeleteSurvey("conf").ok());
  CHECK(within_a_second([&] { return b->registry.Find("conf") == nullptr; }));
  const auto stopping = std::chrono::steady_clock::now();
  poller.Stop();
  CHECK(std::chrono::steady_clock::now() - stopping < std::chrono::milliseconds(500));
}

// Live corrections (issue 33): a correction of the wording made on node A is
// served by node B after a sync, with its record, B's aggregate (whose shard
// A wrote before the correction) still read; a node restarted after it loads
// its stored shards with the corrected words.
TEST_CASE_TEMPLATE("SyncCatalog: a correction of the wording made on node A reaches node B; a restart keeps it", Store,
                   SqliteStore, PostgresStore) {
  Store store;
  auto a = OpenNode(store);
  auto b = OpenNode(store);
  REQUIRE(CreateSurvey(*a->storage, a->registry, Parsed(kInvited))->outcome == CreateOutcome::kCreated);
  Answer(*a, "inv", 1);
  CHECK(Sync(*b).added == 1);

  nlohmann::json corrected = nlohmann::json::parse(kInvited);
  corrected["questions"][0]["options"][1] = "B";
  auto done = CorrectWording(*a->storage, *a->registry.Find("inv"), corrected);
  REQUIRE(done.ok());
  REQUIRE(done->outcome == CorrectionOutcome::kCorrected);
  CHECK(a->registry.Find("inv")->survey().questions[0].client->DefinitionToJson()["options"][1] == "B");

  const SyncSummary synced = Sync(*b);
  CHECK(synced.wordings == 1);
  const auto entry = b->registry.Find("inv");
  CHECK(entry->definition() == a->registry.Find("inv")->definition());
  CHECK(entry->corrections() == a->registry.Find("inv")->corrections());
  CHECK(entry->corrections().size() == 1);
  CHECK_FALSE(Sync(*b).changed());
  // The same words again: nothing to correct.
  auto stale = CorrectWording(*b->storage, *entry, corrected);
  REQUIRE(stale.ok());
  CHECK(stale->outcome == CorrectionOutcome::kNothingChanged);

  // A third node, started now, reads the shard written before the correction with the corrected words.
  auto c = OpenNode(store);
  std::ostringstream warnings;
  auto loaded = LoadCatalog(*c->storage, c->registry, warnings);
  REQUIRE_MESSAGE(loaded.ok(), (loaded.ok() ? "" : loaded.error()));
  CHECK(c->registry.Find("inv")->respondents() == 1);
  CHECK(c->registry.Find("inv")->definition()["questions"][0]["options"][1] == "B");
  CHECK(c->registry.Find("inv")->corrections().size() == 1);
}

}  // namespace deniable::server
