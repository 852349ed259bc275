// A categorical question's simulated truth: option weights
// {"frequencies": [w_0, ..., w_{k-1}]} (non-negative, normalised: the
// population respondents are drawn from), and the comparison of the estimates
// with the simulated answers' frequencies (L1, L-infinity, MSE over options,
// the consistent frequencies' L1) and of the intervals with their own target
// (the population's frequencies by default, the sample's under
// {"interval": "respondents"}: "ci_coverage", "ci_target").
#pragma once

#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "core/kinds/categorical/categorical_question_kind.h"

namespace deniable {

Result<std::unique_ptr<TruthSampler>> ParseCategoricalTruth(const CategoricalQuestionKind& kind,
                                                            const nlohmann::json& entry, const std::string& where);

// The advisor's comparison of the categorical mechanisms at the question's k,
// epsilon and n (AdviceToJson), or null without a formal epsilon.
nlohmann::json CategoricalAdvice(const nlohmann::json& result);

// `deniable simulate`'s text for a compared result: the mechanism, a table of
// truth / estimate / 95% CI / consistent estimate per option, the errors, and
// the advisor's recommendation.
std::string CategoricalSimulationText(const nlohmann::json& result);

}  // namespace deniable
