// Storage::CatalogVersion moves with every catalog change a node must see
// (a survey created, its status set, it deleted, a ledger stored) and with
// nothing else; a change made through another connection to the same store
// (another node) moves it too. See server/surveys/catalog_sync.h.
#include <chrono>
#include <thread>

#include <doctest/doctest.h>

#include "storage/store_fixtures.h"

namespace deniable::server {
namespace {

std::uint64_t VersionOf(Storage& storage) {
  auto version = storage.CatalogVersion();
  REQUIRE_MESSAGE(version.ok(), (version.ok() ? "" : version.error()));
  return *version;
}

}  // namespace

TEST_CASE_TEMPLATE("Storage: CatalogVersion moves with each catalog change, and only when something was stored", Store,
                   SqliteStore, PostgresStore) {
  Store store;
  auto opened = store.Open();
  Storage& storage = *opened;
  std::uint64_t version = VersionOf(storage);
  const auto moved = [&] {
    const std::uint64_t now = VersionOf(storage);
    const bool changed = now != version;
    version = now;
    return changed;
  };
  CHECK_FALSE(moved());

  REQUIRE(*storage.CreateSurvey("s", 1, "{}") == CreateOutcome::kCreated);
  CHECK(moved());
  REQUIRE(*storage.CreateSurvey("s", 1, "{}") == CreateOutcome::kExists);  // nothing stored
  CHECK_FALSE(moved());

  REQUIRE(storage.SetStatus({"s", true, ""}).ok());
  CHECK(moved());

  REQUIRE(storage.UpdateLedger("s", "q", [](const auto&) -> Result<std::string> { return std::string("{}"); }).ok());
  CHECK(moved());
  // An update that refuses stores nothing, and moves nothing.
  CHECK(storage.UpdateLedger("s", "q", [](const auto&) -> Result<std::string> {
    return MakeError("stale", ErrorCode::kConflict);
  }).error_code() == ErrorCode::kConflict);
  CHECK_FALSE(moved());

  // Reports and invitations are not the catalog.
  const ReportRecord report{"s", "{}", std::nullopt};
  REQUIRE(storage.SetStatus({"s", false, ""}).ok());
  CHECK(moved());
  REQUIRE(storage.CommitReports({&report}, nullptr).ok());
  REQUIRE(storage.AddInvitations("s", {"h1"}).ok());
  CHECK_FALSE(moved());

  REQUIRE(storage.DeleteSurvey("s").ok());
  CHECK(moved());
  CHECK(storage.DeleteSurvey("s").error_code() == ErrorCode::kNotFound);
  REQUIRE(*storage.CreateSurvey("s", 1, "{}") == CreateOutcome::kDeleted);
  CHECK_FALSE(moved());
}

TEST_CASE_TEMPLATE("Storage: CatalogVersion moves with another node's change; WaitForChange wakes on a change", Store,
                   SqliteStore, PostgresStore) {
  Store store;
  auto node_a = store.Open();
  auto node_b = store.Open();  // a second node on the same store
  const std::uint64_t seen_by_b = VersionOf(*node_b);
  REQUIRE(*node_a->CreateSurvey("s", 1, "{}") == CreateOutcome::kCreated);
  CHECK(VersionOf(*node_b) != seen_by_b);

  // A change on the node itself wakes its waiter at once (the timeout is far).
  const std::uint64_t seen = VersionOf(*node_a);
  node_a->WaitForChange(seen, std::chrono::milliseconds(10));  // PostgreSQL: LISTENing from here on
  std::thread change([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    REQUIRE(node_a->SetStatus({"s", true, ""}).ok());
  });
  const auto start = std::chrono::steady_clock::now();
  node_a->WaitForChange(seen, std::chrono::seconds(20));
  change.join();
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(10));
  CHECK(VersionOf(*node_a) != seen);

  // Interrupted: returns at once, now and later.
  node_a->InterruptWait();
  const auto interrupted = std::chrono::steady_clock::now();
  node_a->WaitForChange(VersionOf(*node_a), std::chrono::seconds(20));
  CHECK(std::chrono::steady_clock::now() - interrupted < std::chrono::seconds(10));
}

}  // namespace deniable::server
