// The surveys the server knows, in memory: each with its parsed definition,
// canonical JSON, and the running aggregate that estimation reads (so results
// cost O(options) whatever the number of reports). Thread-safe.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <shared_mutex>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/aggregate.h"
#include "core/report.h"
#include "core/survey.h"

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
  // core SurveyResultsToJson over a snapshot of the aggregate.
  nlohmann::json Results() const;

 private:
  SurveyAggregate Snapshot() const;

  const Survey survey_;
  const nlohmann::json definition_;
  mutable std::mutex mutex_;
  SurveyAggregate aggregate_;
};

class SurveyRegistry {
 public:
  std::shared_ptr<SurveyEntry> Find(const std::string& id) const;
  // false when a survey with the same id is already registered.
  bool Add(std::shared_ptr<SurveyEntry> entry);
  // Every survey, ordered by id.
  std::vector<std::shared_ptr<SurveyEntry>> All() const;

 private:
  mutable std::shared_mutex mutex_;
  std::map<std::string, std::shared_ptr<SurveyEntry>> entries_;
};

}  // namespace deniable::server
