// The respondent's side of a model round: its answers normalised, the
// squared error's gradient at the round's coefficients, clipped, one
// component sampled and perturbed (model_definition.h has the decisions).
#pragma once

#include <vector>

#include <nlohmann/json.hpp>

#include "core/common/random_source.h"
#include "core/common/result.h"
#include "core/kinds/linear_regression/model_definition.h"

namespace deniable {

// One respondent's record in the model's variables, raw units.
struct ModelRecord {
  std::vector<double> features;
  double target = 0.0;
};

// The answer's record and the state it is computed against, validated:
// {"features": [x_1..x_d], "target": y, "state": {"round": r, "coefficients": [b_0..b_d]}}.
struct ModelAnswer {
  ModelRecord record;
  long long round = 1;
  std::vector<double> coefficients;
  bool complete = false;  // state.complete: the model takes no more gradients
  bool score = false;     // state.score: a held-out round, scoring `coefficients` (model_score.h)
};
Result<ModelAnswer> ParseModelAnswer(const ModelDefinition& model, const nlohmann::json& answer);

// x~ = (1, x_1..x_d) on the normalised scale.
std::vector<double> NormalisedFeatures(const ModelDefinition& model, const ModelRecord& record);
double NormalisedTarget(const ModelDefinition& model, const ModelRecord& record);

// 2 (b . x~ - y) x~, each component clipped to [-clip, clip] and divided by clip.
std::vector<double> ClippedGradient(const ModelDefinition& model, const ModelRecord& record,
                                    const std::vector<double>& coefficients);

// The wire form: {"round": r, "component": j, "value": v}; in a held-out
// round {"round": r, "squared_error": v} (model_score.h); null (nothing
// computed, nothing spent) when the state says the model is complete.
Result<nlohmann::json> PerturbModelAnswer(const ModelDefinition& model, const NumericMechanism& mechanism,
                                          const ModelAnswer& answer, RandomSource& random);

}  // namespace deniable
