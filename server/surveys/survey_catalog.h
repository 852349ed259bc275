// Surveys in both places at once: durable in Storage and live in the
// SurveyRegistry. Loading at start reads every aggregate from its stored
// shards (survey_catalog.cc's LoadAggregates says when a survey's reports are
// streamed through core ParseReport instead); creation stores first, then
// registers, so a survey is never served before it is durable. An invitation
// survey's blind-token key is made with it and stored in the same
// transaction; one created before keys gets its key when it is loaded.
#pragma once

#include <cstdint>
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

}  // namespace deniable::server
