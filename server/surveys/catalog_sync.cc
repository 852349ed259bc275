#include "server/surveys/catalog_sync.h"

#include <iostream>
#include <map>
#include <set>
#include <string>
#include <utility>

#include <nlohmann/json.hpp>

#include "core/common/os_random.h"
#include "core/survey/report.h"
#include "server/surveys/blind_tokens.h"
#include "server/surveys/survey_catalog.h"

namespace deniable::server {
namespace {

struct Generations {
  std::uint64_t status = 0;
  std::uint64_t ledgers = 0;
  std::uint64_t wording = 0;
};

// Serves the stored wording (a correction made on another node) when it
// differs from the entry's; whether it did.
bool ApplyStoredWording(SurveyEntry& entry, const StoredSurvey& stored, const nlohmann::json& corrections,
                        std::uint64_t seen, std::ostream& warnings) {
  if (stored.definition == entry.definition().dump() && corrections == entry.corrections()) return false;
  auto survey = ParseSurveyText(stored.definition);
  if (!survey) {
    warnings << "warning: the stored definition of survey \"" << stored.id << "\" is not valid: " << survey.error() << "\n";
    return false;
  }
  return entry.ApplyWording(std::move(survey).value(), corrections, seen);
}

Result<ReleaseLedger> ParseStoredLedger(const StoredLedger& item) {
  auto json = nlohmann::json::parse(item.ledger, nullptr, false);
  if (json.is_discarded()) return MakeError("not JSON");
  return ReleaseLedger::FromJson(json);
}

std::string LedgerWhere(const StoredLedger& item) {
  return "the stored ledger of survey \"" + item.survey_id + "\" question \"" + item.question_id + "\"";
}

// A survey another node created, built as LoadCatalog builds one at start:
// ledgers first (so a replay keeps the counts scheduled releases need), its
// key, its aggregate from the stored shards (its reports replayed only where
// the aggregate is not enough: declared analyses, a release due but not made),
// its status.
Result<std::shared_ptr<SurveyEntry>> BuildEntry(Storage& storage, const StoredSurvey& stored,
                                                const nlohmann::json& corrections,
                                                const std::vector<const StoredLedger*>& ledgers,
                                                const std::optional<StoredStatus>& status, std::ostream& warnings) {
  auto survey = ParseSurveyText(stored.definition);
  if (!survey) return MakeError("its stored definition is not valid: " + survey.error());
  auto entry = std::make_shared<SurveyEntry>(std::move(survey).value());
  entry->ApplyWording(entry->survey(), corrections);  // before the aggregate, as at start (survey_catalog.cc)
  for (const StoredLedger* item : ledgers) {
    auto ledger = ParseStoredLedger(*item);
    if (!ledger) return MakeError(LedgerWhere(*item) + ": " + ledger.error());
    DENIABLE_TRY(entry->RestoreLedger(item->question_id, std::move(ledger).value()));
  }
  if (entry->survey().access == Access::kInvitation) {
    DENIABLE_ASSIGN_OR_RETURN(const std::string secret, storage.LoadOrCreateSurveyKey(stored.id, [] {
      OsRandom random;
      return StoredSecret(NewSurveyKey(random));
    }));
    auto key = KeyFromStored(secret);
    if (!key) return MakeError(key.error());
    entry->SetTokenKey(*key);
  }
  DENIABLE_ASSIGN_OR_RETURN(const StoredAggregate aggregate, storage.LoadAggregate(stored.id));
  DENIABLE_TRY(entry->Refresh(aggregate.version, [&] { return aggregate; }));
  if (!entry->survey().analyses.empty() || entry->HasDueReleases()) {
    entry->ClearAggregate();
    std::int64_t skipped = 0;
    DENIABLE_TRY(storage.ForEachReportOf(stored.id, [&](const std::string& body) {
      auto document = nlohmann::json::parse(body, nullptr, false);
      auto report = document.is_discarded() ? Result<Report>(MakeError("not JSON")) : ParseReport(entry->survey(), document);
      if (report) {
        entry->AddReport(*report);
      } else {
        ++skipped;
      }
    }));
    entry->MarkReplayed(aggregate.version);
    if (skipped > 0) warnings << "warning: survey \"" << stored.id << "\": skipped " << skipped << " stored report(s)\n";
  }
  if (status) entry->SetStatus({status->closed, status->closes_at});
  return entry;
}

// Applies a stored survey's status and ledgers to the registered entry.
void ApplyToEntry(SurveyEntry& entry, const Generations& seen, const std::optional<StoredStatus>& status,
                  const std::vector<const StoredLedger*>& ledgers, SyncSummary& summary, std::ostream& warnings) {
  const SurveyStatus stored_status = status ? SurveyStatus{status->closed, status->closes_at} : SurveyStatus{};
  if (entry.ApplyStoredStatus(stored_status, seen.status)) ++summary.statuses;
  for (const StoredLedger* item : ledgers) {
    auto ledger = ParseStoredLedger(*item);
    auto applied = ledger ? entry.ApplyStoredLedger(item->question_id, std::move(ledger).value(), seen.ledgers)
                          : Result<bool>(ledger.failure());
    if (!applied) {
      warnings << "warning: " << LedgerWhere(*item) << " was not applied: " << applied.error() << "\n";
    } else if (*applied) {
      ++summary.ledgers;
    }
  }
}

}  // namespace

Result<SyncSummary> SyncCatalog(Storage& storage, SurveyRegistry& registry, std::ostream& warnings) {
  // The generations before the snapshot: a local change after them is at least as new as the snapshot.
  std::map<std::string, std::pair<std::shared_ptr<SurveyEntry>, Generations>> registered;
  for (auto& entry : registry.All()) {
    const Generations seen{entry->status_generation(), entry->ledgers_generation(), entry->wording_generation()};
    const std::string id = entry->id();
    registered.emplace(id, std::make_pair(std::move(entry), seen));
  }
  DENIABLE_ASSIGN_OR_RETURN(const StoredState state, storage.LoadState());
  std::map<std::string, std::optional<StoredStatus>> statuses;
  std::map<std::string, std::vector<const StoredLedger*>> ledgers;
  for (const StoredStatus& status : state.statuses) statuses[status.survey_id] = status;
  for (const StoredLedger& ledger : state.ledgers) ledgers[ledger.survey_id].push_back(&ledger);
  std::map<std::string, nlohmann::json> corrections = CorrectionsBySurvey(state.corrections);
  const auto corrections_of = [&](const std::string& id) {
    auto found = corrections.find(id);
    return found == corrections.end() ? nlohmann::json::array() : found->second;
  };
  std::set<std::string> stored_ids;
  SyncSummary summary;
  for (const StoredSurvey& stored : state.surveys) {
    stored_ids.insert(stored.id);
    const auto found = registered.find(stored.id);
    if (found != registered.end()) {
      const std::size_t before = summary.ledgers;
      if (ApplyStoredWording(*found->second.first, stored, corrections_of(stored.id), found->second.second.wording,
                             warnings)) {
        ++summary.wordings;
      }
      ApplyToEntry(*found->second.first, found->second.second, statuses[stored.id], ledgers[stored.id], summary,
                   warnings);
      if (summary.ledgers != before) summary.ledgers_changed.push_back(found->second.first);
      continue;
    }
    if (registry.Find(stored.id)) continue;  // created here since the generations were read
    auto entry = BuildEntry(storage, stored, corrections_of(stored.id), ledgers[stored.id], statuses[stored.id], warnings);
    if (!entry) {
      // kNotFound: deleted meanwhile (the next sync sees it gone).
      if (entry.error_code() != ErrorCode::kNotFound) {
        warnings << "warning: survey \"" << stored.id << "\" created by another node is not served here: "
                 << entry.error() << "\n";
      }
      continue;
    }
    if (registry.Add(*entry)) ++summary.added;
  }
  // Registered but not stored: deleted by another node, or created here
  // after the snapshot (not deleted: kept).
  for (const auto& [id, item] : registered) {
    if (stored_ids.count(id)) continue;
    DENIABLE_ASSIGN_OR_RETURN(const bool deleted, storage.WasDeleted(id));
    if (!deleted) continue;
    registry.Remove(id);
    ++summary.removed;
  }
  return summary;
}

CatalogPoller::CatalogPoller(Storage& storage, SurveyRegistry& registry, LedgersSynced ledgers_synced,
                             std::chrono::milliseconds interval)
    : storage_(storage),
      registry_(registry),
      ledgers_synced_(std::move(ledgers_synced)),
      interval_(interval),
      thread_([this] { Run(); }) {}

CatalogPoller::~CatalogPoller() { Stop(); }

void CatalogPoller::Stop() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  stopped_.notify_all();
  storage_.InterruptWait();
  if (thread_.joinable()) thread_.join();
}

bool CatalogPoller::Stopping() {
  std::lock_guard<std::mutex> lock(mutex_);
  return stopping_;
}

std::uint64_t CatalogPoller::syncs() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return syncs_;
}

Status CatalogPoller::Turn(std::optional<std::uint64_t>& seen) {
  // Read before the snapshot: a change committed after it moves it again.
  DENIABLE_ASSIGN_OR_RETURN(const std::uint64_t version, storage_.CatalogVersion());
  if (seen && version == *seen) return OkStatus();
  DENIABLE_ASSIGN_OR_RETURN(const SyncSummary synced, SyncCatalog(storage_, registry_, std::cerr));
  seen = version;
  if (synced.changed()) {
    std::cout << "catalog sync: " << synced.added << " survey(s) added, " << synced.removed << " removed, "
              << synced.statuses << " status(es) and " << synced.ledgers << " ledger(s) replaced, "
              << synced.wordings << " wording(s) corrected" << std::endl;
  }
  for (const auto& entry : synced.ledgers_changed) ledgers_synced_(*entry);
  std::lock_guard<std::mutex> lock(mutex_);
  ++syncs_;
  return OkStatus();
}

void CatalogPoller::Run() {
  std::optional<std::uint64_t> seen;  // none yet: the first turn syncs (changes since start-up's load)
  bool failing = false;               // a failing store is reported once, and its recovery
  while (!Stopping()) {
    const Status turn = Turn(seen);
    if (!turn && !failing) {
      std::cerr << "error: catalog sync: " << turn.error() << " (retried every " << interval_.count() << " ms)"
                << std::endl;
    } else if (turn && failing) {
      std::cerr << "catalog sync: the store answers again" << std::endl;
    }
    failing = !turn;
    if (turn && seen) {
      storage_.WaitForChange(*seen, interval_);
    } else {
      std::unique_lock<std::mutex> lock(mutex_);
      stopped_.wait_for(lock, interval_, [this] { return stopping_; });
    }
  }
}

}  // namespace deniable::server
