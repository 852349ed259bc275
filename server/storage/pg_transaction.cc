#include "server/storage/pg_transaction.h"

#include <algorithm>
#include <chrono>
#include <random>
#include <thread>

namespace deniable::server {
namespace {

// 10 ms doubled each attempt, at most 1 s, times a random factor in [0.5, 1.5)
// so that nodes that failed together do not retry together.
void Backoff(int attempt) {
  thread_local std::minstd_rand random(std::random_device{}());
  const double base = std::min(1000.0, 10.0 * static_cast<double>(1 << std::min(attempt, 10)));
  const double factor = 0.5 + std::uniform_real_distribution<double>(0.0, 1.0)(random);
  std::this_thread::sleep_for(std::chrono::microseconds(static_cast<long long>(base * factor * 1000)));
}

// Whether another attempt may start: attempts and time left.
bool MayRetry(int attempt, std::chrono::steady_clock::time_point start) {
  return attempt == 0 || (attempt < kPgTxAttempts && std::chrono::steady_clock::now() - start < kPgTxBudget);
}

bool Retryable(const PgConnection& connection, const Error& error) {
  if (connection.Lost() || error.code == ErrorCode::kUnavailable) return true;
  return connection.last_sqlstate() == "40001" || connection.last_sqlstate() == "40P01";
}

}  // namespace

Status RunTx(PgPool& pool, PgIsolation isolation, const std::function<Status(PgConnection&)>& work) {
  const char* begin = isolation == PgIsolation::kRepeatableRead ? "BEGIN ISOLATION LEVEL REPEATABLE READ"
                                                                : "BEGIN ISOLATION LEVEL READ COMMITTED";
  Error last = MakeError("no attempt was made", ErrorCode::kInternal);
  const auto start = std::chrono::steady_clock::now();
  for (int attempt = 0; MayRetry(attempt, start); ++attempt) {
    if (attempt > 0) Backoff(attempt - 1);
    auto lease = pool.Acquire();
    if (!lease) {
      last = std::move(lease).failure();
      if (last.code != ErrorCode::kUnavailable) return last;
      continue;
    }
    PgConnection& connection = **lease;
    if (auto began = connection.Exec(begin); !began) {
      last = std::move(began).failure();
      if (Retryable(connection, last)) continue;
      return last;
    }
    Status status = work(connection);
    if (status) {
      auto committed = connection.Exec("COMMIT");
      if (committed) return OkStatus();
      if (connection.Lost()) {
        // COMMIT was sent: it may or may not have been applied. Never acknowledged.
        return MakeError("the connection to PostgreSQL was lost during COMMIT: the transaction's outcome is unknown (" +
                             committed.error() + ")",
                         ErrorCode::kUnavailable);
      }
      // PostgreSQL answered COMMIT with an error: it rolled the transaction back.
      last = std::move(committed).failure();
      if (!Retryable(connection, last)) return last;
      continue;
    }
    last = std::move(status).failure();
    const bool retry = Retryable(connection, last) && (connection.Lost() || !connection.last_sqlstate().empty());
    if (!connection.Lost()) (void)connection.Exec("ROLLBACK");  // a failed ROLLBACK leaves it non-idle: dropped
    if (!retry) return last;
  }
  return last;
}

Result<PgResult> RunOne(PgPool& pool, const std::string& sql, const std::vector<PgParam>& params) {
  Error last = MakeError("no attempt was made", ErrorCode::kInternal);
  const auto start = std::chrono::steady_clock::now();
  for (int attempt = 0; MayRetry(attempt, start); ++attempt) {
    if (attempt > 0) Backoff(attempt - 1);
    auto lease = pool.Acquire();
    if (!lease) {
      last = std::move(lease).failure();
      if (last.code != ErrorCode::kUnavailable) return last;
      continue;
    }
    auto result = (*lease)->Exec(sql, params);
    if (result) return result;
    last = std::move(result).failure();
    if (!Retryable(**lease, last)) return last;
  }
  return last;
}

}  // namespace deniable::server
