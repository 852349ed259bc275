// Runs a unit of work as one PostgreSQL transaction, as Janus's run_tx does:
// BEGIN (READ COMMITTED, or REPEATABLE READ for a snapshot), the work, COMMIT.
// The transaction is run again, from BEGIN, with a fresh connection when
// needed, after
//   - a serialization failure (40001) or a deadlock (40P01): PostgreSQL
//     rolled it back, nothing of it is stored;
//   - a connection lost before COMMIT was sent: nothing of it is stored;
// at most kPgTxAttempts times and while less than kPgTxBudget has passed
// (a connection attempt may take its connect_timeout, 5 s), waiting 10, 20,
// 40 ... ms (with jitter) between attempts. A connection lost once COMMIT was sent leaves
// its outcome unknown: that is an error (kUnavailable), never a success, so
// nothing is acknowledged that might not be stored. The work must be safe to
// run again: it sets its outputs afresh on each run (no side effect outside
// the transaction but what it recomputes).
#pragma once

#include <chrono>
#include <functional>

#include "core/common/result.h"
#include "server/storage/pg_connection.h"
#include "server/storage/pg_pool.h"

namespace deniable::server {

inline constexpr int kPgTxAttempts = 8;
inline constexpr std::chrono::seconds kPgTxBudget{10};

enum class PgIsolation { kReadCommitted, kRepeatableRead };

Status RunTx(PgPool& pool, PgIsolation isolation, const std::function<Status(PgConnection&)>& work);

// One read-only statement outside a transaction, retried like RunTx (a
// write is never run with it: its outcome after a lost connection is unknown).
Result<PgResult> RunOne(PgPool& pool, const std::string& sql, const std::vector<PgParam>& params = {});

}  // namespace deniable::server
