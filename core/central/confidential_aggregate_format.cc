// The exact counts of a question answered in confidence
// (core/survey/aggregate_format.h): {"n": n, "counts": [one per bin, summing
// to n: each respondent's answer is in one bin]}. Never published; stored as
// the reports that make it are.
#include "core/central/confidential_question_kind.h"
#include "core/survey/aggregate_statistics.h"

namespace deniable {

nlohmann::json ConfidentialAggregate::StatisticsToJson() const { return PartitionCountsToJson(n_, counts_); }

Status ConfidentialAggregate::StatisticsFromJson(const nlohmann::json& statistics) {
  return ReadPartitionCounts(statistics, n_, counts_);
}

}  // namespace deniable
