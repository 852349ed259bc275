// Storage::CorrectSurvey (issue 33, live corrections): the corrected
// definition and the correction's record are stored together, only while the
// stored definition is the one the correction was decided on; another node
// (a second store on the same database) sees both, and the catalog version
// moves; a deleted survey is kNotFound and its corrections go with it.
#include <regex>
#include <string>
#include <thread>
#include <vector>

#include <doctest/doctest.h>

#include "storage/store_fixtures.h"

namespace deniable::server {

TEST_CASE_TEMPLATE("Storage: a correction replaces the definition and is recorded with its time, once per definition",
                   Store, SqliteStore, PostgresStore) {
  Store store;
  auto storage = store.Open();
  REQUIRE(*storage->CreateSurvey("s", 1, R"({"title":"Tpyo"})") == CreateOutcome::kCreated);
  const std::uint64_t before = *storage->CatalogVersion();

  auto first = storage->CorrectSurvey("s", R"({"title":"Tpyo"})", R"({"title":"Typo"})", R"([{"path":"title"}])");
  REQUIRE_MESSAGE(first.ok(), (first.ok() ? "" : first.error()));
  CHECK(first->survey_id == "s");
  CHECK(first->changes == R"([{"path":"title"}])");
  CHECK(std::regex_match(first->made_at, std::regex(R"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ)")));
  CHECK(*storage->CatalogVersion() != before);

  // A correction decided on the old definition stores nothing.
  const std::uint64_t after_first = *storage->CatalogVersion();
  auto stale = storage->CorrectSurvey("s", R"({"title":"Tpyo"})", R"({"title":"Other"})", "[]");
  REQUIRE_FALSE(stale.ok());
  CHECK(stale.error_code() == ErrorCode::kConflict);
  CHECK(*storage->CatalogVersion() == after_first);
  REQUIRE(storage->CorrectSurvey("s", R"({"title":"Typo"})", R"({"title":"Typo!"})", R"([{"path":"title"},{}])").ok());

  // Another node (a new store on the same database) reads both, in order.
  auto other = store.Open();
  auto state = other->LoadState();
  REQUIRE(state.ok());
  REQUIRE(state->surveys.size() == 1);
  CHECK(state->surveys[0].definition == R"({"title":"Typo!"})");
  REQUIRE(state->corrections.size() == 2);
  CHECK(state->corrections[0].changes == R"([{"path":"title"}])");
  CHECK(state->corrections[1].changes == R"([{"path":"title"},{}])");
  CHECK(state->corrections[1].survey_id == "s");

  // Deleted: kNotFound, and the corrections are gone with the survey.
  REQUIRE(storage->DeleteSurvey("s").ok());
  auto gone = storage->CorrectSurvey("s", R"({"title":"Typo!"})", "{}", "[]");
  REQUIRE_FALSE(gone.ok());
  CHECK(gone.error_code() == ErrorCode::kNotFound);
  CHECK(store.Count("SELECT COUNT(*) FROM survey_corrections") == 0);
}

TEST_CASE_TEMPLATE("Storage: of concurrent corrections decided on one definition, exactly one is stored", Store,
                   SqliteStore, PostgresStore) {
  Store store;
  auto a = store.Open();
  auto b = store.Open();  // a second node
  REQUIRE(*a->CreateSurvey("s", 1, "v0") == CreateOutcome::kCreated);
  std::vector<int> stored(8, 0);
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&, t] {
      Storage& node = t % 2 == 0 ? *a : *b;
      auto done = node.CorrectSurvey("s", "v0", "v" + std::to_string(t + 1), "[]");
      stored[t] = done.ok() ? 1 : (done.error_code() == ErrorCode::kConflict ? 0 : -1);
    });
  }
  for (auto& thread : threads) thread.join();
  int total = 0;
  for (int outcome : stored) {
    CHECK(outcome >= 0);
    total += outcome;
  }
  CHECK(total == 1);
  CHECK(store.Count("SELECT COUNT(*) FROM survey_corrections") == 1);
}

}  // namespace deniable::server
