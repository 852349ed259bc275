// The exact counts of a categorical question asked openly
// (core/survey/aggregate_format.h): {"n": n, "counts": [one per option,
// summing to n]}.
#include "core/kinds/open/open_categorical_kind.h"
#include "core/survey/aggregate_statistics.h"

namespace deniable {

nlohmann::json OpenCategoryAggregate::StatisticsToJson() const { return PartitionCountsToJson(n_, counts_); }

Status OpenCategoryAggregate::StatisticsFromJson(const nlohmann::json& statistics) {
  return ReadPartitionCounts(statistics, n_, counts_);
}

}  // namespace deniable
