// Mergeable sufficient statistics: per question, n and how many reports
// supported each option (categorical) or a fine histogram of the reported
// values (numeric, numeric_histogram.h). Estimation reads only these, so its cost does not
// grow with the number of reports. Not thread-safe: the server guards it, and
// independent aggregates combine with Merge.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "core/numeric_histogram.h"

#include "core/report.h"
#include "core/result.h"
#include "core/survey.h"

namespace deniable {

struct QuestionAggregate {
  std::int64_t n = 0;
  std::vector<std::int64_t> support_counts;    // categorical
  std::optional<NumericHistogram> histogram;  // numeric
};

class SurveyAggregate {
 public:
  explicit SurveyAggregate(const Survey& survey);
  void Add(const Report& report);  // the report must come from ParseReport for this survey
  Status Merge(const SurveyAggregate& other);
  std::int64_t respondents() const { return respondents_; }
  const std::vector<QuestionAggregate>& questions() const { return questions_; }

 private:
  std::int64_t respondents_ = 0;
  std::vector<QuestionAggregate> questions_;
};

}  // namespace deniable
