// A thin RAII layer over the SQLite C API: a connection and prepared
// statements whose failures come back as Result/Status with SQLite's message.
// Not thread-safe by itself: SqliteStorage serialises access. Errors are
// kInternal, or kBusy when another connection held a lock too long.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>

#include "core/common/result.h"

struct sqlite3;
struct sqlite3_stmt;

namespace deniable::server {

class SqliteStatement {
 public:
  SqliteStatement() = default;
  SqliteStatement(sqlite3* db, sqlite3_stmt* statement) : db_(db), statement_(statement) {}
  SqliteStatement(SqliteStatement&& other) noexcept;
  SqliteStatement& operator=(SqliteStatement&& other) noexcept;
  SqliteStatement(const SqliteStatement&) = delete;
  SqliteStatement& operator=(const SqliteStatement&) = delete;
  ~SqliteStatement();

  // Parameters are numbered from 1. A failed bind is reported by Step.
  void BindText(int index, std::string_view text);
  void BindInt(int index, long long value);
  void BindBlob(int index, std::string_view bytes);

  // true: a row is available; false: the statement is done.
  Result<bool> Step();
  // Resets for the next execution and clears the bindings.
  void Reset();

  std::string ColumnText(int column) const;
  long long ColumnInt(int column) const;
  // The column's bytes as stored (a BLOB), "" for NULL.
  std::string ColumnBlob(int column) const;

 private:
  sqlite3* db_ = nullptr;
  sqlite3_stmt* statement_ = nullptr;
  int bind_error_ = 0;
};

// Resets a kept statement when the scope using it ends: a statement left
// stepped would hold its read snapshot open.
class ResetOnExit {
 public:
  explicit ResetOnExit(SqliteStatement& statement) : statement_(statement) {}
  ~ResetOnExit() { statement_.Reset(); }
  ResetOnExit(const ResetOnExit&) = delete;
  ResetOnExit& operator=(const ResetOnExit&) = delete;

 private:
  SqliteStatement& statement_;
};

class SqliteDatabase {
 public:
  static Result<SqliteDatabase> Open(const std::string& path);
  SqliteDatabase(SqliteDatabase&& other) noexcept;
  SqliteDatabase& operator=(SqliteDatabase&& other) noexcept;
  SqliteDatabase(const SqliteDatabase&) = delete;
  SqliteDatabase& operator=(const SqliteDatabase&) = delete;
  ~SqliteDatabase();

  // Runs one or more statements that return no rows needed by the caller.
  Status Exec(const std::string& sql);
  // The single-value result of a query such as "PRAGMA journal_mode=WAL".
  Result<std::string> QueryText(const std::string& sql);
  Result<SqliteStatement> Prepare(const std::string& sql);
  // The statement for `sql`, prepared on first use and kept with the
  // connection (each report batch runs the same few: parsing them again
  // cost as much as running them). The caller resets it (ResetOnExit).
  Result<SqliteStatement*> Cached(const std::string& sql);
  // Runs one statement that returns no rows (BEGIN IMMEDIATE, COMMIT) through Cached.
  Status ExecCached(const std::string& sql);
  // Rows changed by the last INSERT/UPDATE/DELETE.
  int Changes() const;
  // True when the last error was a constraint violation (e.g. duplicate key).
  bool LastErrorWasConstraint() const;

 private:
  explicit SqliteDatabase(sqlite3* db) : db_(db) {}
  sqlite3* db_ = nullptr;
  std::unordered_map<std::string, std::unique_ptr<SqliteStatement>> cached_;  // finalized before db_ closes
};

}  // namespace deniable::server
