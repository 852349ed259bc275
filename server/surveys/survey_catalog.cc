#include "server/surveys/survey_catalog.h"

#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/common/os_random.h"
#include "core/survey/report.h"
#include "core/survey/text_correction.h"
#include "server/surveys/blind_tokens.h"

namespace deniable::server {
namespace {

Result<std::shared_ptr<SurveyEntry>> ParseStoredSurvey(const StoredSurvey& stored) {
  auto survey = ParseSurveyText(stored.definition);
  if (!survey) return MakeError("stored survey \"" + stored.id + "\" is not valid: " + survey.error());
  return std::make_shared<SurveyEntry>(std::move(survey).value());
}

// Each survey's aggregate from its stored shards (storage.h): no report is
// read. Except where the aggregate alone is not enough: a survey that
// declares analyses (kept as reports arrive, they have no stored form) or
// whose scheduled release was due but not made (a stop right after the
// report that reached its count: its counts exactly at that count are only
// in the reports) is rebuilt from its reports, as every survey was before.
Status LoadAggregates(Storage& storage, const std::map<std::string, std::shared_ptr<SurveyEntry>>& entries,
                      LoadSummary& summary, std::ostream& warnings) {
  for (const auto& [id, entry] : entries) {
    DENIABLE_ASSIGN_OR_RETURN(const StoredAggregate stored, storage.LoadAggregate(id));
    DENIABLE_TRY(entry->Refresh(stored.version, [&] { return stored; }));
    // A blob that lags (one node writes a large one at most once a second): the reports after it.
    const auto add = [&](const std::string& body) {
      auto document = nlohmann::json::parse(body, nullptr, false);
      auto report = document.is_discarded() ? Result<Report>(MakeError("not JSON")) : ParseReport(entry->survey(), document);
      if (!report) {
        ++summary.skipped_reports;
        warnings << "warning: skipping a stored report of survey \"" << id << "\": " << report.error() << "\n";
        return;
      }
      entry->AddReport(*report);
    };
    if (stored.shards.size() == 1 && stored.shards[0].through >= 0) {
      DENIABLE_TRY(storage.ForEachReportAfter(id, stored.shards[0].through, add));
      entry->MarkReplayed(stored.version);
    }
    if (!entry->survey().analyses.empty() || entry->HasDueReleases()) {
      entry->ClearAggregate();
      DENIABLE_TRY(storage.ForEachReportOf(id, add));
      entry->MarkReplayed(stored.version);
    }
    // One node: what was loaded is its shard, with the reports its blob may lack.
    if (!storage.SharedByNodes()) entry->AdoptAsOwnShard();
    summary.reports += entry->respondents();
  }
  return OkStatus();
}

// The ledgers of questions answered in confidence. A ledger that does not
// parse is an error: serving a question as if nothing had been released would
// let its budget be spent twice.
Status LoadLedgers(const std::vector<StoredLedger>& stored,
                   const std::map<std::string, std::shared_ptr<SurveyEntry>>& entries) {
  for (const StoredLedger& item : stored) {
    const std::string where = "the stored ledger of survey \"" + item.survey_id + "\" question \"" + item.question_id + "\"";
    const auto found = entries.find(item.survey_id);
    if (found == entries.end()) return MakeError(where + ": no such survey");
    auto json = nlohmann::json::parse(item.ledger, nullptr, false);
    if (json.is_discarded()) return MakeError(where + ": not JSON");
    auto ledger = ReleaseLedger::FromJson(json);
    if (!ledger) return MakeError(where + ": " + ledger.error());
    if (auto restored = found->second->RestoreLedger(item.question_id, std::move(ledger).value()); !restored) {
      return MakeError(where + ": " + restored.error());
    }
  }
  return OkStatus();
}

// Every invitation survey's key. A survey created before keys gets one now,
// stored once (Storage::LoadOrCreateSurveyKey): its unused codes are then
// exchanged for tokens like a new survey's; its used codes stay used.
Status LoadTokenKeys(Storage& storage, const std::map<std::string, std::shared_ptr<SurveyEntry>>& entries) {
  for (const auto& [id, entry] : entries) {
    if (entry->survey().access != Access::kInvitation) continue;
    DENIABLE_ASSIGN_OR_RETURN(const std::string secret, storage.LoadOrCreateSurveyKey(id, [] {
      OsRandom random;
      return StoredSecret(NewSurveyKey(random));
    }));
    auto key = KeyFromStored(secret);
    if (!key) return MakeError("survey \"" + id + "\": " + key.error());
    entry->SetTokenKey(*key);
  }
  return OkStatus();
}

}  // namespace

Result<LoadSummary> LoadCatalog(Storage& storage, SurveyRegistry& registry, std::ostream& warnings) {
  DENIABLE_ASSIGN_OR_RETURN(const StoredState stored, storage.LoadState());
  LoadSummary summary;
  std::map<std::string, std::shared_ptr<SurveyEntry>> entries;
  for (const auto& item : stored.surveys) {
    DENIABLE_ASSIGN_OR_RETURN(auto entry, ParseStoredSurvey(item));
    entries.emplace(item.id, std::move(entry));
  }
  // The corrections before the aggregates: a blob written before them is read knowing the words changed.
  for (auto& [id, corrections] : CorrectionsBySurvey(stored.corrections)) {
    const auto found = entries.find(id);
    if (found != entries.end()) found->second->ApplyWording(found->second->survey(), std::move(corrections));
  }
  // Ledgers first: replaying the reports then keeps the counts a scheduled release that was due but not yet made
  // (a stop right after the report that reached its count) needs, exactly at its count.
  DENIABLE_TRY(LoadLedgers(stored.ledgers, entries));
  DENIABLE_TRY(LoadTokenKeys(storage, entries));
  DENIABLE_TRY(LoadAggregates(storage, entries, summary, warnings));
  for (const StoredStatus& status : stored.statuses) {
    const auto found = entries.find(status.survey_id);
    if (found != entries.end()) found->second->SetStatus({status.closed, status.closes_at});
  }
  for (const auto& [id, entry] : entries) registry.Add(entry);
  summary.surveys = entries.size();
  return summary;
}

Result<CreateSurveyResult> CreateSurvey(Storage& storage, SurveyRegistry& registry, Survey survey) {
  auto entry = std::make_shared<SurveyEntry>(std::move(survey));
  // An invitation survey's key is stored with it (one transaction) and never served.
  std::optional<std::string> secret;
  if (entry->survey().access == Access::kInvitation) {
    OsRandom random;
    const oprf::KeyPair key = NewSurveyKey(random);
    entry->SetTokenKey(key);
    secret = StoredSecret(key);
  }
  DENIABLE_ASSIGN_OR_RETURN(const CreateOutcome outcome, storage.CreateSurvey(entry->id(), entry->survey().version,
                                                                              entry->definition().dump(), secret));
  if (outcome == CreateOutcome::kExists) return CreateSurveyResult{outcome, registry.Find(entry->id())};
  if (outcome == CreateOutcome::kDeleted) return CreateSurveyResult{outcome, nullptr};
  // The catalog sync may have registered it first (it read the store after the commit): that entry is served.
  if (!registry.Add(entry)) {
    if (auto registered = registry.Find(entry->id())) entry = std::move(registered);
  }
  return CreateSurveyResult{outcome, entry};
}

nlohmann::json CorrectionToJson(const StoredCorrection& stored) {
  auto changes = nlohmann::json::parse(stored.changes, nullptr, false);
  return {{"made_at", stored.made_at}, {"changes", changes.is_discarded() ? nlohmann::json::array() : changes}};
}

std::map<std::string, nlohmann::json> CorrectionsBySurvey(const std::vector<StoredCorrection>& stored) {
  std::map<std::string, nlohmann::json> by_survey;
  for (const StoredCorrection& item : stored) {
    auto& list = by_survey[item.survey_id];
    if (list.is_null()) list = nlohmann::json::array();
    list.push_back(CorrectionToJson(item));
  }
  return by_survey;
}

Result<CorrectionResult> CorrectWording(Storage& storage, SurveyEntry& entry, const nlohmann::json& proposed) {
  const std::uint64_t generation = entry.wording_generation();
  const Survey& running = entry.survey();
  const std::string expected = entry.definition().dump();
  auto changes = CompareWording(running, proposed);
  if (!changes) {
    const bool invalid = changes.error_code() == ErrorCode::kInvalidArgument;
    return CorrectionResult{invalid ? CorrectionOutcome::kInvalid : CorrectionOutcome::kNeedsNewVersion,
                            changes.error(), nullptr};
  }
  if (changes->empty()) {
    return CorrectionResult{CorrectionOutcome::kNothingChanged,
                            "nothing to correct: the definition's wording is the one the survey runs with", nullptr};
  }
  DENIABLE_ASSIGN_OR_RETURN(Survey corrected, ParseSurvey(proposed));
  const std::string definition = SurveyToJson(corrected).dump();
  auto stored = storage.CorrectSurvey(entry.id(), expected, definition, WordingChangesToJson(*changes).dump());
  if (!stored && stored.error_code() == ErrorCode::kConflict) {
    return CorrectionResult{CorrectionOutcome::kCorrectedMeanwhile,
                            "survey \"" + entry.id() + "\" was corrected by another request meanwhile: reload it and "
                            "correct the words again", nullptr};
  }
  if (!stored && stored.error_code() == ErrorCode::kNotFound) {
    return CorrectionResult{CorrectionOutcome::kDeleted, stored.error(), nullptr};
  }
  if (!stored) return stored.failure();
  nlohmann::json corrections = entry.corrections();
  const nlohmann::json record = CorrectionToJson(*stored);
  corrections.push_back(record);
  // Unless a sync applied a later stored wording meanwhile (then it has this one too).
  entry.ApplyWording(std::move(corrected), std::move(corrections), generation);
  return CorrectionResult{CorrectionOutcome::kCorrected, "", record};
}

}  // namespace deniable::server
