// A simulated population for a model: records drawn by the model itself
// (its features uniform over their questions' ranges, the target
// b_0 + sum b_j x_j + Normal(0, noise_sd), clipped into its range), so that
// the truth is known. Truth entry: {"coefficients": [b_0, b_1..b_d] in the
// variables' units, "noise_sd": s}. Compare gives the prediction MSE on the
// normalised target of the private coefficients, of non-private least squares
// on the same records, and of the true coefficients.
#pragma once

#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "core/common/result.h"
#include "core/kinds/regression/model_definition.h"
#include "core/survey/question_kind.h"

namespace deniable {

Result<std::unique_ptr<TruthSampler>> ParseModelTruth(const ModelDefinition& model, const nlohmann::json& entry,
                                                      const std::string& where);

}  // namespace deniable
