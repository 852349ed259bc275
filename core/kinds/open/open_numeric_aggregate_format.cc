// The statistics of a numeric question asked openly
// (core/survey/aggregate_format.h): {"n": n, "mean": the answers' mean,
// "squared_deviations": their sum of squared deviations from it (Welford's
// M2, never negative), "counts": [kOpenValueBins, summing to n]}. The range
// is the question's.
#include "core/kinds/open/open_numeric_kind.h"
#include "core/survey/aggregate_statistics.h"

namespace deniable {

nlohmann::json OpenValueAggregate::StatisticsToJson() const {
  return {{"n", n_}, {"mean", mean_}, {"squared_deviations", m2_}, {"counts", counts_}};
}

Status OpenValueAggregate::StatisticsFromJson(const nlohmann::json& statistics) {
  const std::string where = "statistics";
  DENIABLE_TRY(RequireFields(statistics, {"n", "mean", "squared_deviations", "counts"}, where));
  DENIABLE_ASSIGN_OR_RETURN(const std::int64_t n, ReadCount(statistics, "n", kMaxAggregateCount, "", where));
  DENIABLE_ASSIGN_OR_RETURN(const double mean, ReadFinite(statistics, "mean", where));
  DENIABLE_ASSIGN_OR_RETURN(const double m2, ReadFinite(statistics, "squared_deviations", where));
  if (m2 < 0.0) return MakeError(where + ".squared_deviations: must not be negative, but is " + std::to_string(m2));
  DENIABLE_ASSIGN_OR_RETURN(auto counts, ReadCounts(statistics, "counts", counts_.size(), n, "n", where));
  DENIABLE_TRY(CheckTotal(counts, n, "n", where + ".counts"));
  n_ = n;
  mean_ = mean;
  m2_ = m2;
  counts_ = std::move(counts);
  return OkStatus();
}

}  // namespace deniable
