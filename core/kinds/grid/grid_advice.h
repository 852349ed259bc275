// The rating grid's advisor: the two row mechanisms (grid_mechanism.h)
// compared by the standard error of one item's mean position, for the
// grid's items, levels and epsilon and the expected respondents, so that the
// builder can say which one to choose. The planning assumption is answers
// spread evenly over the scale and intervals for the population (the
// default target); grid_estimator.h's MeanPositionVariance gives it.
#pragma once

#include <cstdint>

#include <nlohmann/json.hpp>

#include "core/kinds/grid/grid_mechanism.h"

namespace deniable {

// One item's mean position's standard error from n reports at the row's
// epsilon, answers uniform over the L levels.
double PlanningMeanStdError(GridMechanismKind kind, int levels, double row_epsilon, double n);

// {"planning": what is assumed, "mechanisms": [{"name", "epsilon_per_item",
// "mean_std_error", "mean_ci_half_width", "distribution": whether it gives
// one}], "recommended": name, "chosen": name, "note": sentence}. `chosen` is
// the question's mechanism. The recommendation is the better of ordinal and
// grr, which also give the distribution; duchi (the mean alone, usually the
// most precise at small epsilon per item) is shown beside them.
nlohmann::json GridAdviceToJson(int items, int levels, double epsilon, std::int64_t respondents,
                                GridMechanismKind chosen);

}  // namespace deniable
