#include "server/storage/sqlite_db.h"

#include <sqlite3.h>

#include <utility>

namespace deniable::server {
namespace {

// SQLite's failures are the store's (kInternal), but a lock held too long by
// another connection (kBusy: worth a retry).
ErrorCode Kind(sqlite3* db) {
  const int code = db ? (sqlite3_extended_errcode(db) & 0xff) : SQLITE_NOMEM;
  return code == SQLITE_BUSY || code == SQLITE_LOCKED ? ErrorCode::kBusy : ErrorCode::kInternal;
}

Error SqliteError(sqlite3* db, const std::string& what) {
  return MakeError(what + ": " + (db ? sqlite3_errmsg(db) : "out of memory"), Kind(db));
}

}  // namespace

SqliteStatement::SqliteStatement(SqliteStatement&& other) noexcept
    : db_(std::exchange(other.db_, nullptr)),
      statement_(std::exchange(other.statement_, nullptr)),
      bind_error_(other.bind_error_) {}

SqliteStatement& SqliteStatement::operator=(SqliteStatement&& other) noexcept {
  if (this != &other) {
    sqlite3_finalize(statement_);
    db_ = std::exchange(other.db_, nullptr);
    statement_ = std::exchange(other.statement_, nullptr);
    bind_error_ = other.bind_error_;
  }
  return *this;
}

SqliteStatement::~SqliteStatement() { sqlite3_finalize(statement_); }

void SqliteStatement::BindText(int index, std::string_view text) {
  const int rc = sqlite3_bind_text64(statement_, index, text.data(), text.size(), SQLITE_TRANSIENT, SQLITE_UTF8);
  if (rc != SQLITE_OK && bind_error_ == 0) bind_error_ = rc;
}

void SqliteStatement::BindInt(int index, long long value) {
  const int rc = sqlite3_bind_int64(statement_, index, value);
  if (rc != SQLITE_OK && bind_error_ == 0) bind_error_ = rc;
}

void SqliteStatement::BindBlob(int index, std::string_view bytes) {
  const int rc = sqlite3_bind_blob64(statement_, index, bytes.data(), bytes.size(), SQLITE_TRANSIENT);
  if (rc != SQLITE_OK && bind_error_ == 0) bind_error_ = rc;
}

Result<bool> SqliteStatement::Step() {
  if (bind_error_ != 0) return MakeError(std::string("binding a parameter failed: ") + sqlite3_errstr(bind_error_), ErrorCode::kInternal);
  const int rc = sqlite3_step(statement_);
  if (rc == SQLITE_ROW) return true;
  if (rc == SQLITE_DONE) return false;
  return SqliteError(db_, "SQLite step failed");
}

void SqliteStatement::Reset() {
  sqlite3_reset(statement_);
  sqlite3_clear_bindings(statement_);
  bind_error_ = 0;
}

std::string SqliteStatement::ColumnText(int column) const {
  const auto* text = reinterpret_cast<const char*>(sqlite3_column_text(statement_, column));
  return text ? std::string(text, static_cast<std::size_t>(sqlite3_column_bytes(statement_, column))) : std::string();
}

long long SqliteStatement::ColumnInt(int column) const { return sqlite3_column_int64(statement_, column); }

std::string SqliteStatement::ColumnBlob(int column) const {
  const auto* bytes = static_cast<const char*>(sqlite3_column_blob(statement_, column));
  return bytes ? std::string(bytes, static_cast<std::size_t>(sqlite3_column_bytes(statement_, column))) : std::string();
}

Result<SqliteDatabase> SqliteDatabase::Open(const std::string& path) {
  sqlite3* db = nullptr;
  const int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX;
  if (sqlite3_open_v2(path.c_str(), &db, flags, nullptr) != SQLITE_OK) {
    Error error = SqliteError(db, "cannot open " + path);
    sqlite3_close(db);
    return error;
  }
  sqlite3_extended_result_codes(db, 1);
  return SqliteDatabase(db);
}

SqliteDatabase::SqliteDatabase(SqliteDatabase&& other) noexcept
    : db_(std::exchange(other.db_, nullptr)), cached_(std::move(other.cached_)) {
  other.cached_.clear();
}

SqliteDatabase& SqliteDatabase::operator=(SqliteDatabase&& other) noexcept {
  if (this != &other) {
    cached_.clear();
    sqlite3_close(db_);
    db_ = std::exchange(other.db_, nullptr);
    cached_ = std::move(other.cached_);
    other.cached_.clear();
  }
  return *this;
}

SqliteDatabase::~SqliteDatabase() {
  cached_.clear();
  sqlite3_close(db_);
}

Status SqliteDatabase::Exec(const std::string& sql) {
  char* message = nullptr;
  if (sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &message) != SQLITE_OK) {
    std::string text = message ? message : sqlite3_errmsg(db_);
    sqlite3_free(message);
    return MakeError("SQLite: " + text + " (in: " + sql.substr(0, 60) + ")", Kind(db_));
  }
  return OkStatus();
}

Result<std::string> SqliteDatabase::QueryText(const std::string& sql) {
  DENIABLE_ASSIGN_OR_RETURN(auto statement, Prepare(sql));
  DENIABLE_ASSIGN_OR_RETURN(auto row, statement.Step());
  return row ? statement.ColumnText(0) : std::string();
}

Result<SqliteStatement> SqliteDatabase::Prepare(const std::string& sql) {
  sqlite3_stmt* statement = nullptr;
  if (sqlite3_prepare_v2(db_, sql.c_str(), -1, &statement, nullptr) != SQLITE_OK) {
    return SqliteError(db_, "SQLite cannot prepare \"" + sql.substr(0, 60) + "\"");
  }
  return SqliteStatement(db_, statement);
}

Result<SqliteStatement*> SqliteDatabase::Cached(const std::string& sql) {
  auto found = cached_.find(sql);
  if (found != cached_.end()) return found->second.get();
  sqlite3_stmt* statement = nullptr;
  if (sqlite3_prepare_v3(db_, sql.c_str(), -1, SQLITE_PREPARE_PERSISTENT, &statement, nullptr) != SQLITE_OK) {
    return SqliteError(db_, "SQLite cannot prepare \"" + sql.substr(0, 60) + "\"");
  }
  auto kept = std::make_unique<SqliteStatement>(db_, statement);
  SqliteStatement* pointer = kept.get();
  cached_.emplace(sql, std::move(kept));
  return pointer;
}

Status SqliteDatabase::ExecCached(const std::string& sql) {
  DENIABLE_ASSIGN_OR_RETURN(SqliteStatement* statement, Cached(sql));
  ResetOnExit reset(*statement);
  if (auto stepped = statement->Step(); !stepped) {
    return MakeError("SQLite: " + std::string(sqlite3_errmsg(db_)) + " (in: " + sql.substr(0, 60) + ")", Kind(db_));
  }
  return OkStatus();
}

int SqliteDatabase::Changes() const { return sqlite3_changes(db_); }

bool SqliteDatabase::LastErrorWasConstraint() const { return (sqlite3_extended_errcode(db_) & 0xff) == SQLITE_CONSTRAINT; }

}  // namespace deniable::server
