#include "server/survey_registry.h"

#include "core/survey/results.h"
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

nlohmann::json SurveyEntry::PublicStates() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return PublicStatesToJson(survey_, aggregate_);
}

Status SurveyEntry::Admits(const Report& report) const {
  std::lock_guard<std::mutex> lock(mutex_);
  return aggregate_.Admits(survey_, report);
}

SurveyAggregate SurveyEntry::Snapshot() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return aggregate_;
}

ResultsCache::Lookup SurveyEntry::Results(const EstimateQuery& query, EstimationLimits& limits,
                                          const EstimationRequester& requester) {
  const std::string& key = query.key;
  const bool default_options = key == DefaultEstimateOptionsKey();
  const auto gone = [&requester] { return requester.client_gone && requester.client_gone->load(); };
  // At most three tries: another request's computation may be refused for its own reasons.
  for (int attempt = 1;; ++attempt) {
    bool computed_here = false;
    try {
      if (auto cached = results_cache_.Find(respondents(), key)) return {std::move(cached), false};
      const SurveyAggregate snapshot = Snapshot();
      return results_cache_.GetOrCompute(snapshot.respondents(), key, [&] {
        computed_here = true;
        return Compute(snapshot, query.options, default_options, limits, requester);
      });
    } catch (const EstimationRefused&) {
      if (computed_here || attempt >= 3 || gone()) throw;
    }
  }
}

nlohmann::json SurveyEntry::Compute(const SurveyAggregate& snapshot, const nlohmann::json& options,
                                    bool default_options, EstimationLimits& limits,
                                    const EstimationRequester& requester) const {
  // Most kinds (and numeric questions without reports) cost microseconds.
  if (!ResultsNeedEstimation(survey_, snapshot)) return SurveyResultsToJson(survey_, snapshot, options);
  const std::function<bool()> gone = [flag = requester.client_gone] { return flag && flag->load(); };
  const bool per_client = !default_options && !requester.trusted && !requester.client.empty();
  const auto claim = per_client ? limits.clients.TryClaim(requester.client) : std::nullopt;
  if (per_client && !claim) throw ClientEstimationLimit();
  const auto permit = (default_options ? limits.defaults : limits.custom).Enter(gone);
  if (gone()) throw EstimationCancelled();
  if (!permit) throw EstimationBusy();
  nlohmann::json document = SurveyResultsToJson(survey_, snapshot, options, gone);
  if (gone()) throw EstimationCancelled();
  return document;
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
