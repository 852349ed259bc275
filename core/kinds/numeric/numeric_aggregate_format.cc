// The numeric aggregate's statistics (core/survey/aggregate_format.h):
// {"n": n, "histogram": the fine histogram's storage form
// (NumericHistogram::ToJson: its range, cells, reports, values, sum, sum of
// squares, counts), "atom_counts": [one per report value of the mechanism
// (levels), summing to the histogram's values; [] for continuous reports]}.
// The histogram's range and cells must be the question's mechanism's.
#include "core/kinds/numeric/numeric_question_kind.h"
#include "core/survey/aggregate_statistics.h"

namespace deniable {

nlohmann::json NumericAggregate::StatisticsToJson() const {
  return {{"n", n_}, {"histogram", histogram_.ToJson()}, {"atom_counts", atom_counts_}};
}

Status NumericAggregate::StatisticsFromJson(const nlohmann::json& statistics) {
  const std::string where = "statistics";
  DENIABLE_TRY(RequireFields(statistics, {"n", "histogram", "atom_counts"}, where));
  DENIABLE_ASSIGN_OR_RETURN(const std::int64_t n, ReadCount(statistics, "n", kMaxAggregateCount, "", where));
  auto histogram = NumericHistogram::FromJson(statistics.at("histogram"));
  if (!histogram) return InContext(where, std::move(histogram).failure());
  // Bit-exact: the cells are the mechanism's output range cut in equal parts.
  if (histogram->range().low != histogram_.range().low || histogram->range().high != histogram_.range().high ||
      histogram->cells() != histogram_.cells()) {
    return MakeError(where + ".histogram: its range and cells are not the question's mechanism's");
  }
  if (histogram->reports() != n) {
    return MakeError(where + ".histogram.reports: must be n (" + std::to_string(n) + "), but is " +
                     std::to_string(histogram->reports()));
  }
  const std::int64_t values = histogram->values();
  DENIABLE_ASSIGN_OR_RETURN(auto atom_counts,
                            ReadCounts(statistics, "atom_counts", atoms_.size(), values, "the values", where));
  if (!atoms_.empty()) {  // every reported value is one of the atoms
    DENIABLE_TRY(CheckTotal(atom_counts, values, "the histogram's values", where + ".atom_counts"));
  }
  n_ = n;
  histogram_ = std::move(histogram).value();
  atom_counts_ = std::move(atom_counts);
  return OkStatus();
}

}  // namespace deniable
