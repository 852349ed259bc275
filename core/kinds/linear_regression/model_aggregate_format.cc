// The model's statistics (core/survey/aggregate_format.h): {"n": n,
// "rounds": [per round with reports, in increasing order: {"round": r >= 1,
// "reports": its reports, "count": [per gradient component, the reports of
// that component, summing to reports], "sum": [per component, the finite sum
// of their values], "squares": a held-out round's sum of squared errors (0
// otherwise)}]}, the rounds' reports summing to n. The current round, each
// chain's coefficients and the scored coefficients are not stored: they are
// a function of the rounds (model_rounds.h) and are replayed on reading, as
// Merge does, so a read aggregate serves the same state and results.
#include <string>

#include "core/kinds/linear_regression/model_rounds.h"
#include "core/survey/aggregate_statistics.h"

namespace deniable {

nlohmann::json ModelAggregate::StatisticsToJson() const {
  nlohmann::json rounds = nlohmann::json::array();
  for (const auto& [round, sums] : rounds_) {
    rounds.push_back({{"round", round},
                      {"reports", sums.reports},
                      {"count", sums.count},
                      {"sum", sums.sum},
                      {"squares", sums.squares}});
  }
  return {{"n", n_}, {"rounds", std::move(rounds)}};
}

Status ModelAggregate::StatisticsFromJson(const nlohmann::json& statistics) {
  const std::string where = "statistics";
  DENIABLE_ASSIGN_OR_RETURN(const CountedList read_list, ReadCountedList(statistics, "rounds"));
  const std::int64_t n = read_list.n;
  const nlohmann::json& array = *read_list.items;
  const auto components = static_cast<std::size_t>(components_);
  std::map<long long, RoundSums> rounds;
  std::vector<std::int64_t> reports;
  for (std::size_t i = 0; i < array.size(); ++i) {
    const std::string at = where + ".rounds[" + std::to_string(i) + "]";
    const nlohmann::json& item = array[i];
    DENIABLE_TRY(RequireFields(item, {"round", "reports", "count", "sum", "squares"}, at));
    DENIABLE_ASSIGN_OR_RETURN(const std::int64_t round, ReadCount(item, "round", kMaxAggregateCount, "", at));
    if (round < 1 || (!rounds.empty() && round <= rounds.rbegin()->first)) {
      return MakeError(at + ".round: rounds start at 1 and must be in increasing order, each once, but is " +
                       std::to_string(round));
    }
    RoundSums sums;
    DENIABLE_ASSIGN_OR_RETURN(sums.reports, ReadCount(item, "reports", n, "n", at));
    DENIABLE_ASSIGN_OR_RETURN(sums.count,
                              ReadCounts(item, "count", components, sums.reports, "the round's reports", at));
    DENIABLE_TRY(CheckTotal(sums.count, sums.reports, "the round's reports", at + ".count"));
    DENIABLE_ASSIGN_OR_RETURN(sums.sum, ReadFinites(item, "sum", components, at));
    DENIABLE_ASSIGN_OR_RETURN(sums.squares, ReadFinite(item, "squares", at));
    if (sums.squares < 0.0) return MakeError(at + ".squares: must not be negative");
    reports.push_back(sums.reports);
    rounds.emplace(round, std::move(sums));
  }
  DENIABLE_TRY(CheckTotal(reports, n, "n", where + ".rounds[].reports"));
  n_ = n;
  rounds_ = std::move(rounds);
  current_ = 1;
  while (rounds_.count(current_) && rounds_.at(current_).reports >= batch_) ++current_;
  Refold();
  return OkStatus();
}

}  // namespace deniable
