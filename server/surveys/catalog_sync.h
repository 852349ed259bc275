// What one server node changed, seen by the others (issue 31): surveys
// created, closed or reopened, corrected (issue 33), deleted, and release ledgers changed on any
// node on the same store reach every node's registry within a second.
//
// How: the store keeps a catalog version moved in the same transaction as
// each such change (Storage::CatalogVersion). A poller thread per node reads
// it (waiting with Storage::WaitForChange: PostgreSQL wakes it with
// LISTEN/NOTIFY; the poll is the guarantee, as notifications are not
// replayed) and, when it moved, reloads the catalog with LoadState() and
// applies the difference to the registry. LoadState() rather than a log of
// changes: the catalog is small (surveys, statuses, ledgers: no reports),
// changes are rare (admin actions, releases), and a full snapshot cannot miss
// a change the way a log read from a remembered position can; a poll that
// finds the version unchanged costs one cheap read.
//
// Applying the difference never undoes this node's own newer change: the
// version is read before the snapshot, and a status or ledger this node
// changed since (its generation moved) is left as it is, for the next sync
// (its own change moved the version). A survey is removed only when the store
// says it was deleted, and a removed id is never registered again.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <ostream>
#include <thread>
#include <vector>

#include "core/common/result.h"
#include "server/storage/storage.h"
#include "server/surveys/survey_registry.h"

namespace deniable::server {

struct SyncSummary {
  std::size_t added = 0;     // surveys created by another node, now registered
  std::size_t removed = 0;   // surveys deleted by another node, now removed
  std::size_t statuses = 0;  // statuses replaced
  std::size_t ledgers = 0;   // ledgers replaced
  std::size_t wordings = 0;  // surveys whose wording another node corrected
  std::vector<std::shared_ptr<SurveyEntry>> ledgers_changed;  // the surveys whose ledgers were replaced
  bool changed() const { return added + removed + statuses + ledgers + wordings > 0; }
};

// Brings the registry to the store's catalog (one LoadState() and a diff).
// A new survey is registered with its blind-token key, its ledgers, its
// status and its stored reports. Problems with single surveys are written to
// `warnings` and left for the next sync; an error only when the store cannot
// be read.
Result<SyncSummary> SyncCatalog(Storage& storage, SurveyRegistry& registry, std::ostream& warnings);

// The node's poller: a thread that syncs the catalog whenever the store's
// catalog version moved, checking at least every `interval`. `ledgers_synced`
// is called for each survey whose ledgers another node changed (the app runs
// its due scheduled releases: the ledger's read-modify-write makes each once).
class CatalogPoller {
 public:
  using LedgersSynced = std::function<void(SurveyEntry& entry)>;
  CatalogPoller(Storage& storage, SurveyRegistry& registry, LedgersSynced ledgers_synced,
                std::chrono::milliseconds interval = std::chrono::milliseconds(500));
  ~CatalogPoller();
  CatalogPoller(const CatalogPoller&) = delete;
  CatalogPoller& operator=(const CatalogPoller&) = delete;

  // Stops and joins the thread (at once: the wait is interrupted). Idempotent.
  void Stop();
  // How many syncs have run (tests wait for one).
  std::uint64_t syncs() const;

 private:
  void Run();
  // One poll: syncs when the version moved from `seen` (updated once synced).
  Status Turn(std::optional<std::uint64_t>& seen);
  bool Stopping();

  Storage& storage_;
  SurveyRegistry& registry_;
  LedgersSynced ledgers_synced_;
  const std::chrono::milliseconds interval_;
  mutable std::mutex mutex_;
  std::condition_variable stopped_;
  bool stopping_ = false;
  std::uint64_t syncs_ = 0;
  std::thread thread_;  // last: started once the rest is built
};

}  // namespace deniable::server
