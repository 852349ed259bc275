// A rating grid's simulated truth: {"frequencies": [w_0, ..., w_{L-1}]} (every
// item's answers drawn from these weights over the scale) or
// {"frequencies": [[one list per item]]}; items are drawn independently. The
// comparison gives per item the simulated respondents' mean position and
// distribution ("truth"), the population's ("population"), and the errors:
// the mean positions' mean absolute error, the distributions' mean L1, and
// the share of items whose mean interval covers its own target (the
// population's mean by default, the respondents' under "respondents").
#pragma once

#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "core/kinds/grid/grid_question_kind.h"

namespace deniable {

Result<std::unique_ptr<TruthSampler>> ParseGridTruth(const GridQuestionKind& kind, const nlohmann::json& entry,
                                                     const std::string& where);

std::string GridSimulationText(const nlohmann::json& result);

}  // namespace deniable
