// A "choose all that apply" question's simulated truth, one of
//   {"shares": [pi_0, ..., pi_(k-1)]}: each option chosen independently with
//       its share (only when max_choices is k: a cap would change the shares);
//   {"values": [[0, 2], [], [1], ...]}: a table's sets, one drawn uniformly
//       per respondent (the population's shares are the table's);
// and the comparison of the estimates with the simulated respondents' own
// shares (L1, L-infinity, MSE over options; the number chosen's mean) and of
// the intervals with their own target ("ci_coverage", "ci_target"), plus the
// advisor's comparison of the mechanisms (multiple_advice.h).
#pragma once

#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "core/kinds/multiple/multiple_question_kind.h"

namespace deniable {

Result<std::unique_ptr<TruthSampler>> ParseMultipleTruth(const MultipleQuestionKind& kind, const nlohmann::json& entry,
                                                         const std::string& where);

// `deniable simulate`'s text: the mechanism and its guarantee, per option truth / estimate / 95% CI, the
// number chosen, the errors and the advisor's recommendation.
std::string MultipleSimulationText(const nlohmann::json& result);

}  // namespace deniable
