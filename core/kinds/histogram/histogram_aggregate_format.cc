// The histogram aggregate's statistics (core/survey/aggregate_format.h):
// {"n": n, "levels": [per level 1..height of the question's tree (one level
// for sue and oue): {"n": the reports of that level, "counts": [per node, the
// reports whose bit is 1: each at most the level's n]}]}, the levels' n
// summing to n.
#include "core/kinds/histogram/histogram_question_kind.h"
#include "core/survey/aggregate_statistics.h"

namespace deniable {

nlohmann::json HistogramAggregate::StatisticsToJson() const {
  nlohmann::json levels = nlohmann::json::array();
  for (const LevelCounts& level : levels_) levels.push_back({{"n", level.n}, {"counts", level.counts}});
  return {{"n", n_}, {"levels", std::move(levels)}};
}

Status HistogramAggregate::StatisticsFromJson(const nlohmann::json& statistics) {
  const std::string where = "statistics";
  DENIABLE_ASSIGN_OR_RETURN(const CountedList read_list, ReadCountedList(statistics, "levels"));
  const std::int64_t n = read_list.n;
  const nlohmann::json& array = *read_list.items;
  if (array.size() != levels_.size()) {
    return MakeError(where + ".levels: must have " + std::to_string(levels_.size()) +
                     " entries (the question's levels), but has " + std::to_string(array.size()));
  }
  std::vector<LevelCounts> levels;
  std::vector<std::int64_t> level_reports;
  for (std::size_t l = 0; l < levels_.size(); ++l) {
    const std::string at = where + ".levels[" + std::to_string(l) + "]";
    DENIABLE_TRY(RequireFields(array[l], {"n", "counts"}, at));
    LevelCounts level;
    DENIABLE_ASSIGN_OR_RETURN(level.n, ReadCount(array[l], "n", n, "n", at));
    DENIABLE_ASSIGN_OR_RETURN(level.counts,
                              ReadCounts(array[l], "counts", levels_[l].counts.size(), level.n, "the level's n", at));
    level_reports.push_back(level.n);
    levels.push_back(std::move(level));
  }
  DENIABLE_TRY(CheckTotal(level_reports, n, "n", where + ".levels[].n"));
  n_ = n;
  levels_ = std::move(levels);
  return OkStatus();
}

}  // namespace deniable
