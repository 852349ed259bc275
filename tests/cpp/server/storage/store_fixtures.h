// The stores the Storage tests run against (TEST_CASE_TEMPLATE over both):
// SQLite in a temporary directory, and PostgreSQL in a fresh database
// (pg_test_database.h). Open() opens the store (again: a reopened store is
// what another node, or the node after a restart, sees); Count(sql) runs a
// COUNT query on the store's database beside the Storage.
#pragma once

#include <memory>
#include <string>

#include <doctest/doctest.h>

#include "server/storage/pg_connection.h"
#include "server/storage/postgres_storage.h"
#include "server/storage/sqlite_db.h"
#include "server/storage/sqlite_storage.h"
#include "storage/pg_test_database.h"
#include "storage/temp_dir.h"

namespace deniable::server {

struct SqliteStore {
  static constexpr bool kSqlite = true;
  TempDir dir;

  std::unique_ptr<Storage> Open() {
    auto storage = SqliteStorage::Open(dir.File("deniable.sqlite3"));
    REQUIRE_MESSAGE(storage.ok(), (storage.ok() ? "" : storage.error()));
    return std::move(storage).value();
  }
  long long Count(const std::string& sql) {
    auto db = SqliteDatabase::Open(dir.File("deniable.sqlite3"));
    REQUIRE(db.ok());
    auto text = db.value().QueryText(sql);
    REQUIRE_MESSAGE(text.ok(), (text.ok() ? "" : text.error()));
    return std::stoll(*text);
  }
};

struct PostgresStore {
  static constexpr bool kSqlite = false;
  std::string url;

  PostgresStore() {
    auto fresh = PgTestCluster::Get().FreshDatabase();
    REQUIRE_MESSAGE(fresh.ok(), (fresh.ok() ? "" : fresh.error()));
    url = *fresh;
  }
  std::unique_ptr<Storage> Open() { return OpenPostgres(); }
  std::unique_ptr<PostgresStorage> OpenPostgres(int connections = 4) {
    auto storage = PostgresStorage::Open(url, connections);
    REQUIRE_MESSAGE(storage.ok(), (storage.ok() ? "" : storage.error()));
    return std::move(storage).value();
  }
  long long Count(const std::string& sql) {
    auto db = PgConnection::Connect(url);
    REQUIRE_MESSAGE(db.ok(), (db.ok() ? "" : db.error()));
    auto rows = (*db)->Exec(sql);
    REQUIRE_MESSAGE(rows.ok(), (rows.ok() ? "" : rows.error()));
    return rows->Int(0, 0);
  }
};

}  // namespace deniable::server
