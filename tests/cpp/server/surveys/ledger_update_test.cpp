// A question's release ledger is stored as a read-modify-write of the stored
// one (SurveyEntry::StoreLedger over Storage::UpdateLedger): two server nodes
// on one store, each holding the ledger as it was, cannot both spend it.
#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include "core/common/os_random.h"
#include "core/survey/report.h"
#include "core/survey/survey.h"
#include "server/storage/sqlite_storage.h"
#include "server/surveys/survey_registry.h"
#include "storage/temp_dir.h"

namespace deniable::server {
namespace {

const char* const kSurvey = R"({"format": "deniable.survey/v1", "id": "conf", "version": 1, "title": "In confidence",
  "results": "public", "access": "open", "questions": [{"id": "q", "text": "Which?", "type": "categorical",
  "options": ["a", "b"], "privacy": "central", "budget": 1}]})";

PersistLedger SaveTo(Storage& storage) {
  return [&storage](const std::string& question_id, const LedgerUpdate& update) {
    return storage.UpdateLedger("conf", question_id, update);
  };
}

std::unique_ptr<SqliteStorage> OpenNode(const TempDir& dir) {
  auto storage = SqliteStorage::Open(dir.File("deniable.sqlite3"));
  REQUIRE_MESSAGE(storage.ok(), (storage.ok() ? "" : storage.error()));
  return std::move(storage).value();
}

}  // namespace

TEST_CASE("Two nodes releasing from the same ledger: the second is refused, the budget is spent once") {
  TempDir dir;
  auto store_a = OpenNode(dir);
  auto store_b = OpenNode(dir);  // a second node on the same database file
  auto survey = ParseSurveyText(kSurvey);
  REQUIRE_MESSAGE(survey.ok(), (survey.ok() ? "" : survey.error()));
  REQUIRE(*store_a->CreateSurvey("conf", 1, "{}") == CreateOutcome::kCreated);
  SurveyEntry node_a(*survey);
  SurveyEntry node_b(*survey);
  auto report = ParseReport(*survey, nlohmann::json{{"survey", "conf"}, {"version", 1}, {"responses", {{"q", 0}}}});
  REQUIRE_MESSAGE(report.ok(), (report.ok() ? "" : report.error()));
  node_a.AddReport(*report);
  node_b.AddReport(*report);

  ReleaseRequest request;
  request.epsilon = 0.6;
  OsRandom random;
  const auto made_a = node_a.Release("q", request, std::nullopt, random, "2026-11-28T00:00:00Z", SaveTo(*store_a));
  CHECK(std::holds_alternative<LedgerRelease>(made_a));
  // Node b still holds the empty ledger: 0.6 more would overspend the budget of 1.
  const auto made_b = node_b.Release("q", request, std::nullopt, random, "2026-11-28T00:00:01Z", SaveTo(*store_b));
  REQUIRE(std::holds_alternative<ReleaseRefused>(made_b));
  CHECK(std::get<ReleaseRefused>(made_b).reason == ReleaseRefused::kStorage);
  // A conflict (the handler answers 409 ledger_changed: retry), and b now holds the stored ledger.
  CHECK(std::get<ReleaseRefused>(made_b).error.code == ErrorCode::kConflict);
  CHECK(std::get<ReleaseRefused>(made_b).error.message ==
        "question \"q\": its stored ledger changed since this release was decided (another server node released or "
        "cancelled meanwhile): nothing was stored; try again");
  CHECK(node_b.Ledger("q")->releases().size() == 1);  // a's release, reloaded; b published nothing of its own
  CHECK(node_b.Ledger("q")->spent() == doctest::Approx(0.6).epsilon(1e-12));
  // Its retry is decided on the stored ledger: 0.6 more would overspend.
  const auto retried_b = node_b.Release("q", request, std::nullopt, random, "2026-11-28T00:00:01Z", SaveTo(*store_b));
  REQUIRE(std::holds_alternative<ReleaseRefused>(retried_b));
  CHECK(std::get<ReleaseRefused>(retried_b).reason == ReleaseRefused::kOverBudget);

  auto state = store_b->LoadState();
  REQUIRE(state.ok());
  REQUIRE(state->ledgers.size() == 1);
  auto stored = ReleaseLedger::FromJson(nlohmann::json::parse(state->ledgers[0].ledger));
  REQUIRE(stored.ok());
  CHECK(stored->releases().size() == 1);
  CHECK(stored->spent() == doctest::Approx(0.6).epsilon(1e-12));

  // Node a, whose ledger is the stored one, goes on releasing from it.
  request.epsilon = 0.3;
  CHECK(std::holds_alternative<LedgerRelease>(
      node_a.Release("q", request, std::nullopt, random, "2026-11-28T00:00:02Z", SaveTo(*store_a))));
  // Node b's retry after a's second release: refused once more (conflict), then made over the stored ledger.
  request.epsilon = 0.05;
  const auto stale_b = node_b.Release("q", request, std::nullopt, random, "2026-11-28T00:00:03Z", SaveTo(*store_b));
  REQUIRE(std::holds_alternative<ReleaseRefused>(stale_b));
  CHECK(std::get<ReleaseRefused>(stale_b).error.code == ErrorCode::kConflict);
  CHECK(std::holds_alternative<LedgerRelease>(
      node_b.Release("q", request, std::nullopt, random, "2026-11-28T00:00:04Z", SaveTo(*store_b))));
  auto final_state = store_a->LoadState();
  REQUIRE(final_state.ok());
  auto final_ledger = ReleaseLedger::FromJson(nlohmann::json::parse(final_state->ledgers[0].ledger));
  REQUIRE(final_ledger.ok());
  CHECK(final_ledger->releases().size() == 3);
  CHECK(final_ledger->spent() == doctest::Approx(0.95).epsilon(1e-12));
}

TEST_CASE("Two nodes whose answers reach a scheduled release's count: it is made once, and both serve it") {
  TempDir dir;
  auto store_a = OpenNode(dir);
  auto store_b = OpenNode(dir);
  auto survey = ParseSurveyText(kSurvey);
  REQUIRE(survey.ok());
  REQUIRE(*store_a->CreateSurvey("conf", 1, "{}") == CreateOutcome::kCreated);
  SurveyEntry node_a(*survey);
  SurveyEntry node_b(*survey);
  ReleaseRequest request;
  request.epsilon = 0.5;
  OsRandom random;
  // Scheduled on a at 2 answers; b holds the same ledger (as a catalog sync gives it).
  const auto scheduled = node_a.Release("q", request, 2, random, "2026-11-28T00:00:00Z", SaveTo(*store_a));
  REQUIRE(std::holds_alternative<ScheduledRelease>(scheduled));
  REQUIRE(node_b.RestoreLedger("q", *node_a.Ledger("q")).ok());
  // Both nodes count both answers (as each does from the merged shards; these entries have no shared store).
  for (int i = 0; i < 2; ++i) {
    auto report = ParseReport(*survey, nlohmann::json{{"survey", "conf"}, {"version", 1}, {"responses", {{"q", i}}}});
    REQUIRE(report.ok());
    node_a.AddReport(*report);
    node_b.AddReport(*report);
  }
  REQUIRE(node_a.RunDueReleases(random, "2026-11-28T00:00:01Z", SaveTo(*store_a)).ok());
  // b's update finds the release made: it stores nothing, reloads a's ledger, and has nothing left to make.
  REQUIRE(node_b.RunDueReleases(random, "2026-11-28T00:00:02Z", SaveTo(*store_b)).ok());
  auto state = store_b->LoadState();
  REQUIRE(state.ok());
  auto stored = ReleaseLedger::FromJson(nlohmann::json::parse(state->ledgers[0].ledger));
  REQUIRE(stored.ok());
  CHECK(stored->releases().size() == 1);
  CHECK(stored->scheduled().empty());
  CHECK(stored->spent() == doctest::Approx(0.5).epsilon(1e-12));
  CHECK(node_b.Ledger("q")->ToJson() == stored->ToJson());
  CHECK(node_a.Ledger("q")->ToJson() == stored->ToJson());
}

}  // namespace deniable::server
