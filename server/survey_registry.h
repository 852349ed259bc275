// The surveys the server knows, in memory: each with its parsed definition,
// canonical JSON, the running aggregate that estimation reads (so results
// cost O(options) whatever the number of reports), and the cache of computed
// results documents. Thread-safe.
#pragma once

#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <shared_mutex>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/survey/aggregate.h"
#include "core/survey/results.h"
#include "server/results_query.h"
#include "core/survey/report.h"
#include "core/survey/survey.h"
#include "server/estimation_gate.h"
#include "server/results_cache.h"

namespace deniable::server {

// Who asks for a results document, for the estimation limits.
struct EstimationRequester {
  std::string client;   // ClientKey of the remote address ("" unknown: not limited per client)
  bool trusted = false;  // the admin: not limited per client (still gated)
  std::shared_ptr<const std::atomic<bool>> client_gone;  // null: never gone
};

class SurveyEntry {
 public:
  explicit SurveyEntry(Survey survey);

  const Survey& survey() const { return survey_; }
  const std::string& id() const { return survey_.id; }
  // Canonical definition (core SurveyToJson), as stored and served.
  const nlohmann::json& definition() const { return definition_; }

  void AddReport(const Report& report);
  std::int64_t respondents() const;
  // core PublicStatesToJson over the aggregate (under its lock).
  nlohmann::json PublicStates() const;
  // Whether the report may be counted now (a model's round: SurveyAggregate::Admits).
  Status Admits(const Report& report) const;
  // core SurveyResultsToJson over a snapshot of the aggregate, cached per
  // (respondent count, options). The aggregate's lock, which AddReport needs,
  // is held only to copy the aggregate, never while estimating. A cache miss
  // that needs costly estimation (core ResultsNeedEstimation) takes a turn
  // from `limits`: the default options from their own lane; custom options
  // from the custom lane, and (unless trusted) only while the requester's
  // client has no other such computation. Throws EstimationBusy (lane full),
  // ClientEstimationLimit (the client has one already) or EstimationCancelled
  // (the client disconnected: estimation stopped, nothing cached). A request
  // that waited for another's identical computation, refused for that
  // request's own reason, tries again for itself.
  ResultsCache::Lookup Results(const EstimateQuery& query, EstimationLimits& limits,
                               const EstimationRequester& requester);

 private:
  SurveyAggregate Snapshot() const;
  nlohmann::json Compute(const SurveyAggregate& snapshot, const nlohmann::json& options, bool default_options,
                         EstimationLimits& limits, const EstimationRequester& requester) const;

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
  EstimationLimits& estimation_limits() { return estimation_limits_; }

 private:
  mutable std::shared_mutex mutex_;
  EstimationLimits estimation_limits_;
  std::map<std::string, std::shared_ptr<SurveyEntry>> entries_;
};

}  // namespace deniable::server
