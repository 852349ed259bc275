// One libpq connection (PostgreSQL), and the results of its statements.
// Parameters go out apart from the SQL text (a quote in a parameter is data,
// never SQL), as text: bytes go as hex (decode($n, 'hex')), since a text
// parameter ends at a NUL; a bytea column comes back through PgResult::Bytes. A failure carries its SQLSTATE and its kind:
//   kUnavailable  the connection is lost (or was never made): reconnecting may help
//   kConflict     serialization failure (40001) or deadlock (40P01): the
//                 transaction was rolled back and may be retried
//   kInternal     anything else (a bug, a constraint, a full disk)
// Not thread-safe: one thread uses a connection at a time (PgPool leases it).
#pragma once

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/common/result.h"

struct pg_conn;
struct pg_result;

namespace deniable::server {

class PgResult {
 public:
  PgResult() = default;
  explicit PgResult(pg_result* result);
  PgResult(PgResult&& other) noexcept;
  PgResult& operator=(PgResult&& other) noexcept;
  PgResult(const PgResult&) = delete;
  PgResult& operator=(const PgResult&) = delete;
  ~PgResult();

  int Rows() const;
  bool IsNull(int row, int column) const;
  std::string Text(int row, int column) const;
  long long Int(int row, int column) const;
  // A bytea column (text format, "\x..."): its bytes.
  std::string Bytes(int row, int column) const;
  // Rows an INSERT, UPDATE or DELETE changed.
  long long Changed() const;

 private:
  pg_result* result_ = nullptr;
};

// A statement parameter: text, or NULL (nullopt).
using PgParam = std::optional<std::string>;

class PgConnection {
 public:
  // Connects to a libpq URL (postgresql://... or postgres://...). kUnavailable
  // when the server cannot be reached; the message names the URL without its password.
  static Result<std::unique_ptr<PgConnection>> Connect(const std::string& url);
  PgConnection(const PgConnection&) = delete;
  PgConnection& operator=(const PgConnection&) = delete;
  ~PgConnection();

  // Runs one statement ($1, $2, ... for the parameters).
  Result<PgResult> Exec(const std::string& sql, const std::vector<PgParam>& params = {});
  // Runs several statements, no parameters (a migration's script).
  Status ExecScript(const std::string& sql);

  // After LISTEN: waits until a notification arrives (true; every pending
  // one is consumed), `wake_fd` becomes readable, or `timeout` passes (false).
  // kUnavailable when the connection is lost.
  Result<bool> AwaitNotification(int wake_fd, std::chrono::milliseconds timeout);

  // Whether the connection is lost (the next Exec would fail without reaching the server).
  bool Lost() const;
  // Connected and outside any transaction: fit to be leased again.
  bool Idle() const;
  // The SQLSTATE of the last failed Exec ("" after a success, or when the connection was lost).
  const std::string& last_sqlstate() const { return last_sqlstate_; }
  // The backend's process id (pg_terminate_backend in tests).
  int BackendPid() const;

 private:
  explicit PgConnection(pg_conn* conn) : conn_(conn) {}
  Error Failure(pg_result* result, const std::string& what);

  pg_conn* conn_ = nullptr;
  std::string last_sqlstate_;
  bool broken_ = false;  // a failure said the connection is lost
};

// The URL without its password (for messages): "postgresql://user:***@host/db".
std::string RedactPgUrl(const std::string& url);
// Whether `text` names a PostgreSQL database (postgresql:// or postgres://).
bool IsPgUrl(const std::string& text);
// A text[] literal of the values ({"a","b\"c"}), for = ANY($1) and unnest($1).
std::string PgTextArray(const std::vector<std::string>& values);

}  // namespace deniable::server
