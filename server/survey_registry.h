// The surveys the server knows, in memory: each with its parsed definition,
// canonical JSON, the running aggregate that estimation reads (so results
// cost O(options) whatever the number of reports), and the cache of computed
// results documents. Thread-safe.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <shared_mutex>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/aggregate.h"
#include "core/numeric_results.h"
#include "core/report.h"
#include "core/survey.h"
#include "server/estimation_gate.h"
#include "server/results_cache.h"

namespace deniable::server {

class SurveyEntry {
 public:
  explicit SurveyEntry(Survey survey);

  const Survey& survey() const { return survey_; }
  const std::string& id() const { return survey_.id; }
  // Canonical definition (core SurveyToJson), as stored and served.
  const nlohmann::json& definition() const { return definition_; }

  void AddReport(const Report& report);
  std::int64_t respondents() const;
  // core SurveyResultsToJson over a snapshot of the aggregate, cached per
  // (respondent count, options). The aggregate's lock, which AddReport needs,
  // is held only to copy the aggregate, never while estimating. A cache miss
  // estimates only with a turn from `gate`; throws EstimationBusy without one.
  ResultsCache::Lookup Results(const NumericEstimateOptions& options, EstimationGate& gate);

 private:
  SurveyAggregate Snapshot() const;

  const Survey survey_;
  const nlohmann::json definition_;
  mutable std::mutex mutex_;
  SurveyAggregate aggregate_;
  ResultsCache results_cache_;
};

class SurveyRegistry {
 public:
  std::shared_ptr<SurveyEntry> Find(const std::string& id) const;
  // false when a survey with the same id is already registered.
  bool Add(std::shared_ptr<SurveyEntry> entry);
  // Every survey, ordered by id.
  std::vector<std::shared_ptr<SurveyEntry>> All() const;
  // Shared by every survey's results estimation.
  EstimationGate& estimation_gate() { return estimation_gate_; }

 private:
  // Queued estimations beyond the running ones; more answer 503.
  static constexpr std::size_t kMaxWaitingEstimations = 8;

  mutable std::shared_mutex mutex_;
  EstimationGate estimation_gate_{std::thread::hardware_concurrency(), kMaxWaitingEstimations};
  std::map<std::string, std::shared_ptr<SurveyEntry>> entries_;
};

}  // namespace deniable::server
