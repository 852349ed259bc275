#include "server/storage/pg_connection.h"

#include <libpq-fe.h>
#include <poll.h>

#include <cstdlib>
#include <utility>

namespace deniable::server {
namespace {

// Connection-level SQLSTATEs: class 08 (connection exception) and the
// server going away under a session (57P01 admin_shutdown, e.g.
// pg_terminate_backend or a fast stop; 57P02 crash_shutdown; 57P03 cannot_connect_now).
bool ConnectionLostState(const std::string& state) {
  return state.rfind("08", 0) == 0 || state == "57P01" || state == "57P02" || state == "57P03";
}

std::string Trimmed(std::string text) {
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
  return text;
}

}  // namespace

PgResult::PgResult(pg_result* result) : result_(result) {}
PgResult::PgResult(PgResult&& other) noexcept : result_(std::exchange(other.result_, nullptr)) {}
PgResult& PgResult::operator=(PgResult&& other) noexcept {
  if (this != &other) {
    if (result_) PQclear(result_);
    result_ = std::exchange(other.result_, nullptr);
  }
  return *this;
}
PgResult::~PgResult() {
  if (result_) PQclear(result_);
}

int PgResult::Rows() const { return result_ ? PQntuples(result_) : 0; }
bool PgResult::IsNull(int row, int column) const { return PQgetisnull(result_, row, column) != 0; }
std::string PgResult::Text(int row, int column) const {
  return std::string(PQgetvalue(result_, row, column), static_cast<std::size_t>(PQgetlength(result_, row, column)));
}
long long PgResult::Int(int row, int column) const { return std::strtoll(PQgetvalue(result_, row, column), nullptr, 10); }
std::string PgResult::Bytes(int row, int column) const {
  std::size_t length = 0;
  unsigned char* bytes =
      PQunescapeBytea(reinterpret_cast<const unsigned char*>(PQgetvalue(result_, row, column)), &length);
  if (!bytes) return "";
  std::string out(reinterpret_cast<const char*>(bytes), length);
  PQfreemem(bytes);
  return out;
}
long long PgResult::Changed() const {
  const char* count = result_ ? PQcmdTuples(result_) : "";
  return *count ? std::strtoll(count, nullptr, 10) : 0;
}

Result<std::unique_ptr<PgConnection>> PgConnection::Connect(const std::string& url) {
  char* parse_error = nullptr;
  PQconninfoOption* options = PQconninfoParse(url.c_str(), &parse_error);
  if (!options) {
    std::string message = parse_error ? Trimmed(parse_error) : "cannot be read";
    if (parse_error) PQfreemem(parse_error);
    return MakeError("the database URL " + RedactPgUrl(url) + " is not valid: " + message, ErrorCode::kInvalidArgument);
  }
  PQconninfoFree(options);
  // connect_timeout first: the URL's own setting, if any, overrides it (expand_dbname).
  const char* keys[] = {"connect_timeout", "application_name", "dbname", nullptr};
  const char* values[] = {"5", "deniable", url.c_str(), nullptr};
  pg_conn* conn = PQconnectdbParams(keys, values, 1);
  if (!conn) return MakeError("out of memory connecting to " + RedactPgUrl(url), ErrorCode::kInternal);
  if (PQstatus(conn) != CONNECTION_OK) {
    std::string message = Trimmed(PQerrorMessage(conn));
    PQfinish(conn);
    return MakeError("cannot connect to PostgreSQL at " + RedactPgUrl(url) + ": " + message, ErrorCode::kUnavailable);
  }
  std::unique_ptr<PgConnection> connection(new PgConnection(conn));
  // UTC so that timestamps read back as written; no notices on stderr.
  if (auto set = connection->Exec("SET TIME ZONE 'UTC'"); !set) return std::move(set).failure();
  if (auto set = connection->Exec("SET client_min_messages TO warning"); !set) return std::move(set).failure();
  return connection;
}

PgConnection::~PgConnection() {
  if (conn_) PQfinish(conn_);
}

Error PgConnection::Failure(pg_result* result, const std::string& what) {
  const char* state = result ? PQresultErrorField(result, PG_DIAG_SQLSTATE) : nullptr;
  last_sqlstate_ = state ? state : "";
  std::string message = Trimmed(result ? PQresultErrorMessage(result) : PQerrorMessage(conn_));
  if (message.empty()) message = Trimmed(PQerrorMessage(conn_));
  if (result) PQclear(result);
  // Every error the server sends has a SQLSTATE; one without is libpq's own
  // (e.g. "server closed the connection unexpectedly", while PQstatus may
  // still say CONNECTION_OK): the connection is not to be trusted again.
  if (Lost() || ConnectionLostState(last_sqlstate_) || last_sqlstate_.empty()) {
    broken_ = true;
    return MakeError("the connection to PostgreSQL was lost (" + what + "): " + message, ErrorCode::kUnavailable);
  }
  if (last_sqlstate_ == "40001" || last_sqlstate_ == "40P01") {
    return MakeError("PostgreSQL: " + message + " (SQLSTATE " + last_sqlstate_ + ")", ErrorCode::kConflict);
  }
  return MakeError("PostgreSQL: " + message + (last_sqlstate_.empty() ? "" : " (SQLSTATE " + last_sqlstate_ + ")") +
                       " in: " + what,
                   ErrorCode::kInternal);
}

Result<PgResult> PgConnection::Exec(const std::string& sql, const std::vector<PgParam>& params) {
  last_sqlstate_.clear();
  std::vector<const char*> values;
  std::vector<int> lengths;
  for (const auto& param : params) {
    values.push_back(param ? param->data() : nullptr);
    lengths.push_back(param ? static_cast<int>(param->size()) : 0);
  }
  pg_result* result = PQexecParams(conn_, sql.c_str(), static_cast<int>(params.size()), nullptr, values.data(),
                                   lengths.data(), nullptr, 0);
  const ExecStatusType status = result ? PQresultStatus(result) : PGRES_FATAL_ERROR;
  if (status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK) return Failure(result, sql.substr(0, 80));
  return PgResult(result);
}

Status PgConnection::ExecScript(const std::string& sql) {
  last_sqlstate_.clear();
  pg_result* result = PQexec(conn_, sql.c_str());
  const ExecStatusType status = result ? PQresultStatus(result) : PGRES_FATAL_ERROR;
  if (status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK) return Failure(result, "a script");
  PQclear(result);
  return OkStatus();
}

Result<bool> PgConnection::AwaitNotification(int wake_fd, std::chrono::milliseconds timeout) {
  const auto drain = [&] {
    bool any = false;
    while (PGnotify* notification = PQnotifies(conn_)) {
      PQfreemem(notification);
      any = true;
    }
    return any;
  };
  const auto consume = [&]() -> Status {
    if (PQconsumeInput(conn_) == 0) {
      return MakeError("the connection to PostgreSQL was lost (LISTEN): " + Trimmed(PQerrorMessage(conn_)),
                       ErrorCode::kUnavailable);
    }
    return OkStatus();
  };
  DENIABLE_TRY(consume());
  if (drain()) return true;
  pollfd fds[2] = {{PQsocket(conn_), POLLIN, 0}, {wake_fd, POLLIN, 0}};
  const int ready = ::poll(fds, wake_fd >= 0 ? 2 : 1, static_cast<int>(timeout.count()));
  if (ready <= 0 || fds[0].revents == 0) return false;  // the timeout, the wake-up, or a signal
  DENIABLE_TRY(consume());
  return drain();
}

bool PgConnection::Lost() const { return broken_ || PQstatus(conn_) != CONNECTION_OK; }
bool PgConnection::Idle() const { return !Lost() && PQtransactionStatus(conn_) == PQTRANS_IDLE; }
int PgConnection::BackendPid() const { return PQbackendPID(conn_); }

std::string RedactPgUrl(const std::string& url) {
  std::string out = url;
  const auto scheme = out.find("://");
  if (scheme != std::string::npos) {
    const auto at = out.find('@', scheme + 3);
    const auto slash = out.find('/', scheme + 3);
    if (at != std::string::npos && (slash == std::string::npos || at < slash)) {
      const auto colon = out.find(':', scheme + 3);
      if (colon != std::string::npos && colon < at) out.replace(colon + 1, at - colon - 1, "***");
    }
  }
  for (std::size_t at = out.find("password="); at != std::string::npos; at = out.find("password=", at + 1)) {
    const auto end = out.find('&', at);
    out.replace(at + 9, (end == std::string::npos ? out.size() : end) - at - 9, "***");
  }
  return out;
}

bool IsPgUrl(const std::string& text) {
  return text.rfind("postgresql://", 0) == 0 || text.rfind("postgres://", 0) == 0;
}

std::string PgTextArray(const std::vector<std::string>& values) {
  std::string out = "{";
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (i > 0) out += ',';
    out += '"';
    for (char c : values[i]) {
      if (c == '"' || c == '\\') out += '\\';
      out += c;
    }
    out += '"';
  }
  return out + "}";
}

}  // namespace deniable::server
