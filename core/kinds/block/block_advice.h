// A block's design advice (BlockQuestionKind::DesignAdvice): for each
// attribute, the expected 95% half-width of one option's share for n
// respondents at the attribute's epsilon share, for each sensitivity setting
// a respondent can choose for it (usual, more private, less private; the
// other attributes usual), every respondent answering every attribute.
//
// The share's variance is the one the results report for the population
// (block_marginals.h, calibrated mode, the default): the count's
// delta-method variance CalibratedCountVariance at OUE's q for that share
// plus the sampling's n f (1 - f), over n^2. Two shares f are given, as the
// categorical advisor does: near 0 (a rarely chosen option, where the
// categorical mechanisms are compared) and the largest over f in [0, 1] (an
// upper bound for any option). Calibration estimates q, which makes the
// variance depend on the attribute's number of options.
//
// Assumed: everyone makes the same choice (then the respondents form one
// calibration unit); a mix of settings lies between the rows.
#pragma once

#include <cstdint>

#include <nlohmann/json.hpp>

#include "core/kinds/block/block_definition.h"

namespace deniable {

// {"kind": "block_shares", "respondents", "epsilon_per_attribute", "assumption", "interval_for",
//  "attributes": [{"id", "options", "choices": [{"sensitivity", "epsilon", "std_error",
//                  "ci_half_width", "ci_half_width_worst"}]}]}.
nlohmann::json BlockShareAdvice(const BlockDefinition& block, std::int64_t respondents);

// The population variance of one option's share at frequency f (above), for
// n respondents answering an attribute of `options` options at share epsilon.
double BlockSharePopulationVariance(double f, double n, int options, double epsilon);

}  // namespace deniable
