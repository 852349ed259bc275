// The grid aggregate's statistics (core/survey/aggregate_format.h):
// {"n": n, "counts": [item 0's count per level, then item 1's, ...]}; every
// report reports one level per item, so each item's counts sum to n.
#include "core/kinds/grid/grid_question_kind.h"
#include "core/survey/aggregate_statistics.h"

namespace deniable {

nlohmann::json GridAggregate::StatisticsToJson() const { return {{"n", n_}, {"counts", counts_}}; }

Status GridAggregate::StatisticsFromJson(const nlohmann::json& statistics) {
  const std::string where = "statistics";
  DENIABLE_TRY(RequireFields(statistics, {"n", "counts"}, where));
  DENIABLE_ASSIGN_OR_RETURN(const std::int64_t n, ReadCount(statistics, "n", kMaxAggregateCount, "", where));
  DENIABLE_ASSIGN_OR_RETURN(auto counts, ReadCounts(statistics, "counts", counts_.size(), n, "n", where));
  for (std::size_t start = 0; start < counts.size(); start += levels_) {
    const std::vector<std::int64_t> item(counts.begin() + static_cast<std::ptrdiff_t>(start),
                                         counts.begin() + static_cast<std::ptrdiff_t>(start + levels_));
    DENIABLE_TRY(CheckTotal(item, n, "n", where + ".counts[item " + std::to_string(start / levels_) + "]"));
  }
  n_ = n;
  counts_ = std::move(counts);
  return OkStatus();
}

}  // namespace deniable
