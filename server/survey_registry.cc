#include "server/survey_registry.h"

#include "core/results.h"
#include "server/results_query.h"

namespace deniable::server {

SurveyEntry::SurveyEntry(Survey survey)
    : survey_(std::move(survey)), definition_(SurveyToJson(survey_)), aggregate_(survey_) {}

void SurveyEntry::AddReport(const Report& report) {
  std::lock_guard<std::mutex> lock(mutex_);
  aggregate_.Add(report);
}

std::int64_t SurveyEntry::respondents() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return aggregate_.respondents();
}

SurveyAggregate SurveyEntry::Snapshot() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return aggregate_;
}

ResultsCache::Lookup SurveyEntry::Results(const NumericEstimateOptions& options, EstimationGate& gate) {
  const std::string key = NumericOptionsKey(options);
  if (auto cached = results_cache_.Find(respondents(), key)) return {std::move(cached), false};
  const SurveyAggregate snapshot = Snapshot();
  return results_cache_.GetOrCompute(snapshot.respondents(), key, [&] {
    const auto permit = gate.Enter();
    if (!permit) throw EstimationBusy();
    return SurveyResultsToJson(survey_, snapshot, options);
  });
}

std::shared_ptr<SurveyEntry> SurveyRegistry::Find(const std::string& id) const {
  std::shared_lock<std::shared_mutex> lock(mutex_);
  const auto it = entries_.find(id);
  return it == entries_.end() ? nullptr : it->second;
}

bool SurveyRegistry::Add(std::shared_ptr<SurveyEntry> entry) {
  std::unique_lock<std::shared_mutex> lock(mutex_);
  const std::string id = entry->id();
  return entries_.emplace(id, std::move(entry)).second;
}

std::vector<std::shared_ptr<SurveyEntry>> SurveyRegistry::All() const {
  std::shared_lock<std::shared_mutex> lock(mutex_);
  std::vector<std::shared_ptr<SurveyEntry>> all;
  all.reserve(entries_.size());
  for (const auto& item : entries_) all.push_back(item.second);
  return all;
}

}  // namespace deniable::server
