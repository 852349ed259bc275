// The multiple aggregate's statistics (core/survey/aggregate_format.h):
// {"n": n, "support_counts": [one per output value, each at most n],
//  "reported_ones": [k + 1 counts summing to n, the reports by their number
//  of 1s]} for the bits, whose ones must also add up to the support counts'
// sum; {"n", "support_counts"} summing to n for padding_sampling (one value
// per report).
#include <numeric>

#include "core/kinds/multiple/multiple_question_kind.h"
#include "core/survey/aggregate_statistics.h"

namespace deniable {

nlohmann::json MultipleAggregate::StatisticsToJson() const {
  nlohmann::json statistics = {{"n", n_}, {"support_counts", support_counts_}};
  if (!reported_ones_.empty()) statistics["reported_ones"] = reported_ones_;
  return statistics;
}

Status MultipleAggregate::StatisticsFromJson(const nlohmann::json& statistics) {
  const std::string where = "statistics";
  const bool bits = !reported_ones_.empty();
  if (bits) {
    DENIABLE_TRY(RequireFields(statistics, {"n", "support_counts", "reported_ones"}, where));
  } else {
    DENIABLE_TRY(RequireFields(statistics, {"n", "support_counts"}, where));
  }
  DENIABLE_ASSIGN_OR_RETURN(const std::int64_t n, ReadCount(statistics, "n", kMaxAggregateCount, "", where));
  DENIABLE_ASSIGN_OR_RETURN(auto counts,
                            ReadCounts(statistics, "support_counts", support_counts_.size(), n, "n", where));
  std::vector<std::int64_t> ones;
  if (bits) {
    DENIABLE_ASSIGN_OR_RETURN(ones, ReadCounts(statistics, "reported_ones", reported_ones_.size(), n, "n", where));
    DENIABLE_TRY(CheckTotal(ones, n, "n", where + ".reported_ones"));
    std::int64_t weighted = 0;
    for (std::size_t r = 0; r < ones.size(); ++r) weighted += static_cast<std::int64_t>(r) * ones[r];
    if (weighted != std::accumulate(counts.begin(), counts.end(), std::int64_t{0})) {
      return MakeError(where + ".reported_ones: the reports' 1s must add up to the support counts' sum");
    }
  } else {
    DENIABLE_TRY(CheckTotal(counts, n, "n", where + ".support_counts"));
  }
  n_ = n;
  support_counts_ = std::move(counts);
  reported_ones_ = std::move(ones);
  return OkStatus();
}

}  // namespace deniable
