#include "server/survey_catalog.h"

#include <nlohmann/json.hpp>

#include "core/survey/report.h"

namespace deniable::server {
namespace {

Result<std::shared_ptr<SurveyEntry>> ParseStoredSurvey(const StoredSurvey& stored) {
  auto survey = ParseSurveyText(stored.definition);
  if (!survey) return MakeError("stored survey \"" + stored.id + "\" is not valid: " + survey.error());
  return std::make_shared<SurveyEntry>(std::move(survey).value());
}

Status LoadReports(Storage& storage, SurveyEntry& entry, LoadSummary& summary, std::ostream& warnings) {
  return storage.ForEachReport(entry.id(), [&](const std::string& body) {
    auto document = nlohmann::json::parse(body, nullptr, false);
    auto report = document.is_discarded() ? Result<Report>(MakeError("not JSON"))
                                          : ParseReport(entry.survey(), document);
    if (!report) {
      ++summary.skipped_reports;
      warnings << "warning: skipping a stored report of survey \"" << entry.id() << "\": " << report.error() << "\n";
      return;
    }
    entry.AddReport(*report);
    ++summary.reports;
  });
}

}  // namespace

Result<LoadSummary> LoadCatalog(Storage& storage, SurveyRegistry& registry, std::ostream& warnings) {
  auto stored = storage.LoadSurveys();
  if (!stored) return MakeError(stored.error());
  LoadSummary summary;
  for (const auto& item : *stored) {
    auto entry = ParseStoredSurvey(item);
    if (!entry) return MakeError(entry.error());
    DENIABLE_TRY(LoadReports(storage, **entry, summary, warnings));
    registry.Add(*entry);
    ++summary.surveys;
  }
  return summary;
}

Result<CreateSurveyResult> CreateSurvey(Storage& storage, SurveyRegistry& registry, Survey survey) {
  auto entry = std::make_shared<SurveyEntry>(std::move(survey));
  auto inserted = storage.InsertSurvey(entry->id(), entry->survey().version, entry->definition().dump());
  if (!inserted) return MakeError(inserted.error());
  if (!*inserted) return CreateSurveyResult{false, registry.Find(entry->id())};
  registry.Add(entry);
  return CreateSurveyResult{true, entry};
}

}  // namespace deniable::server
