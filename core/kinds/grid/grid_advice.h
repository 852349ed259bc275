// The rating grid's advisor: the row mechanisms (grid_mechanism.h) compared by
// what a grid's results show per item, the mean position and the distribution
// over the scale, for the grid's items, levels and epsilon and the expected
// respondents, so that the builder can say which one to choose for which. The
// two can disagree: the ordinal mechanism often gives the more precise mean
// but far less precise level shares than GRR (docs/grid-questions.md, "On real
// data": shares 4-7 times less precise on the bfi items). The planning
// assumption is answers spread evenly over the scale and intervals for the
// population (the default target); grid_estimator.h's MeanPositionVariance and
// LevelShareVariance give it.
#pragma once

#include <cstdint>

#include <nlohmann/json.hpp>

#include "core/kinds/grid/grid_mechanism.h"

namespace deniable {

// One item's mean position's standard error from n reports at the row's
// epsilon, answers uniform over the L levels.
double PlanningMeanStdError(GridMechanismKind kind, int levels, double row_epsilon, double n);

// One level's share's standard error from n reports at the row's epsilon,
// answers uniform over the L levels: the least precise level's (for grr every
// level's: frequency_estimator.h's PopulationFrequencyVariance at f = 1/L; for
// ordinal the channel's inverse weighs the levels differently). NaN for duchi,
// which gives no distribution.
double PlanningShareStdError(GridMechanismKind kind, int levels, double row_epsilon, double n);

// {"planning": what is assumed, "respondents", "mechanisms": [{"name",
// "epsilon_per_item", "mean_std_error", "mean_ci_half_width", "share_std_error",
// "share_ci_half_width" (null for duchi), "distribution": whether it gives
// one}], "recommended": the better of ordinal and grr for the mean,
// "recommended_for_distribution": the better of the two for the level shares,
// "chosen": the question's mechanism, "note": a sentence saying which is
// better for what, plainly when the two recommendations differ}. duchi (the
// mean alone, usually the most precise at small epsilon per item) is shown
// beside them, never recommended.
nlohmann::json GridAdviceToJson(int items, int levels, double epsilon, std::int64_t respondents,
                                GridMechanismKind chosen);

}  // namespace deniable
