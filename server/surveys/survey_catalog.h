// Surveys in both places at once: durable in Storage and live in the
// SurveyRegistry. Loading at start reads every aggregate from its stored
// shards (survey_catalog.cc's LoadAggregates says when a survey's reports are
// streamed through core ParseReport instead); creation stores first, then
// registers, so a survey is never served before it is durable. An invitation
// survey's blind-token key is made with it and stored in the same
// transaction; one created before keys gets its key when it is loaded.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>
#include <memory>
#include <ostream>

#include "core/common/result.h"
#include "core/survey/survey.h"
#include "server/storage/storage.h"
#include "server/surveys/survey_registry.h"

namespace deniable::server {

struct LoadSummary {
  std::size_t surveys = 0;
  std::int64_t reports = 0;
  std::int64_t skipped_reports = 0;  // stored reports that no longer validate
};

// Problems with single reports are written to `warnings`; an invalid stored
// survey definition is an error (the data dir needs attention).
Result<LoadSummary> LoadCatalog(Storage& storage, SurveyRegistry& registry, std::ostream& warnings);

struct CreateSurveyResult {
  CreateOutcome outcome = CreateOutcome::kCreated;  // kExists, or kDeleted: ids are never reused
  std::shared_ptr<SurveyEntry> entry;               // the new survey, the existing one, or null (kDeleted)
};

Result<CreateSurveyResult> CreateSurvey(Storage& storage, SurveyRegistry& registry, Survey survey);

// --- corrections of a running survey's wording (core/survey/text_correction.h)
enum class CorrectionOutcome {
  kCorrected,           // stored, then served
  kInvalid,             // the proposed definition is not a valid survey
  kNothingChanged,      // its wording is the running one
  kNeedsNewVersion,     // it differs in more than wording (the message says where and why)
  kCorrectedMeanwhile,  // another correction was stored first (on this node or another): nothing stored
  kDeleted,
};

struct CorrectionResult {
  CorrectionOutcome outcome = CorrectionOutcome::kCorrected;
  std::string message;                        // why, when not corrected
  nlohmann::json correction = nullptr;        // kCorrected: {"made_at", "changes"}
};

// Corrects the running survey's wording to the proposed definition's: the
// changes are decided against the definition served now, stored (only while
// the stored one is still that one, Storage::CorrectSurvey), then served. An
// error only when the store failed (nothing stored).
Result<CorrectionResult> CorrectWording(Storage& storage, SurveyEntry& entry, const nlohmann::json& proposed);

// {"made_at", "changes": [...]} of a stored correction (its changes parsed), and
// every stored correction of each survey as SurveyEntry::corrections() holds them.
nlohmann::json CorrectionToJson(const StoredCorrection& stored);
std::map<std::string, nlohmann::json> CorrectionsBySurvey(const std::vector<StoredCorrection>& stored);

}  // namespace deniable::server
