// The categorical aggregate's statistics (core/survey/aggregate_format.h):
// {"n": n, "support_counts": [one per option, each at most n: a report
// supports an option at most once]}.
#include "core/kinds/categorical/categorical_question_kind.h"
#include "core/survey/aggregate_statistics.h"

namespace deniable {

nlohmann::json CategoricalAggregate::StatisticsToJson() const {
  return {{"n", n_}, {"support_counts", support_counts_}};
}

Status CategoricalAggregate::StatisticsFromJson(const nlohmann::json& statistics) {
  const std::string where = "statistics";
  DENIABLE_TRY(RequireFields(statistics, {"n", "support_counts"}, where));
  DENIABLE_ASSIGN_OR_RETURN(const std::int64_t n, ReadCount(statistics, "n", kMaxAggregateCount, "", where));
  DENIABLE_ASSIGN_OR_RETURN(auto counts,
                            ReadCounts(statistics, "support_counts", support_counts_.size(), n, "n", where));
  n_ = n;
  support_counts_ = std::move(counts);
  return OkStatus();
}

}  // namespace deniable
