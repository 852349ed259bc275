#include "core/kinds/grid/grid_advice.h"

#include <cmath>
#include <vector>

#include "core/common/validation.h"
#include "core/frequency/frequency_estimator.h"
#include "core/kinds/grid/grid_estimator.h"

namespace deniable {

double PlanningMeanStdError(GridMechanismKind kind, int levels, double row_epsilon, double n) {
  const auto row = GridRowMechanism::Create(kind, levels, row_epsilon);
  if (!row) return NAN;
  const std::vector<double> uniform(static_cast<std::size_t>(levels), 1.0 / levels);
  return std::sqrt(MeanPositionVariance((*row)->channel(), uniform, n));
}

nlohmann::json GridAdviceToJson(int items, int levels, double epsilon, std::int64_t respondents,
                                GridMechanismKind chosen) {
  const double row_epsilon = epsilon / items;
  const double n = static_cast<double>(respondents > 0 ? respondents : 1);
  auto mechanisms = nlohmann::json::array();
  GridMechanismKind best = GridMechanismKind::kOrdinal;
  double best_error = INFINITY;
  for (GridMechanismKind kind : {GridMechanismKind::kOrdinal, GridMechanismKind::kGrr, GridMechanismKind::kDuchi}) {
    const double error = PlanningMeanStdError(kind, levels, row_epsilon, n);
    // Recommended: the better of the two that also give the distribution; duchi is shown beside them.
    if (kind != GridMechanismKind::kDuchi && error < best_error) best = kind, best_error = error;
    mechanisms.push_back({{"name", GridMechanismName(kind)},
                          {"epsilon_per_item", row_epsilon},
                          {"mean_std_error", error},
                          {"distribution", kind != GridMechanismKind::kDuchi},
                          {"mean_ci_half_width", kZ95 * error}});
  }
  std::string note = "for " + std::to_string(respondents) + " respondents, each item at epsilon " +
                     FormatNumber(row_epsilon) + " (" + FormatNumber(epsilon) + " over " + std::to_string(items) +
                     " items): \"" + GridMechanismName(best) + "\" gives an item's mean position within ±" +
                     FormatSignificant(kZ95 * best_error, 2) + " positions (95%) and the distribution over the levels; "
                     "\"duchi\" gives the mean alone, within ±" +
                     FormatSignificant(kZ95 * PlanningMeanStdError(GridMechanismKind::kDuchi, levels, row_epsilon, n), 2);
  if (best != chosen) note += "; the question uses \"" + GridMechanismName(chosen) + "\"";
  return {{"planning", "answers spread evenly over the " + std::to_string(levels) +
                           " levels; intervals for the population"},
          {"respondents", respondents},
          {"mechanisms", mechanisms},
          {"recommended", GridMechanismName(best)},
          {"chosen", GridMechanismName(chosen)},
          {"note", note}};
}

}  // namespace deniable
