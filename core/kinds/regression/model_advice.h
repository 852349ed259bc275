// A model's design advice (RegressionQuestionKind::DesignAdvice): for n
// expected respondents, how the rounds fall (respondents per round, rounds,
// rounds per chain, whether the results will have an interval) and the
// precision to expect of the coefficients, as a floor.
//
// The floor is the error of averaged SGD from its gradient noise alone
// (Polyak-Ruppert: the average of A iterates around the optimum b* has
// covariance H^-1 S H^-1 / A, the best any averaged SGD attains): per round
// each component's gradient is the mean of about G / (d + 1) reports, each
// with variance at least v = the mechanism's smallest Var(y | x) on [-1, 1],
// times clip^2, so S = (d + 1) v clip^2 / G on the diagonal; H is the squared
// error's Hessian 2 E[x~ x~^T] (+ ridge on the slopes), with features spread
// evenly and independently over their ranges: diag(2, 2/3 + ridge, ...) on
// the normalised scale. A = the rounds the results average: each chain's last
// half (model_results.h). The raw units follow by RawCoefficients' linearity.
//
// An honest statement of what to expect, not an interval: the learning rate's
// transient (gamma_t = rate / sqrt(t) from zero) and clipping bias add to it,
// and features bunched in part of their range give a smaller H and larger
// errors. The results' own interval (the chains' disagreement) is what to
// read after collection; with fewer than two chains, or a chain without a
// complete round, there is none.
#pragma once

#include <cstdint>

#include <nlohmann/json.hpp>

#include "core/kinds/regression/model_definition.h"
#include "core/numeric/numeric_mechanism.h"

namespace deniable {

// {"kind": "model_rounds", "respondents", "epsilon", "mechanism", "batch", "chains", "components",
//  "rounds", "rounds_per_chain", "averaged_rounds", "respondents_per_chain_step", "interval",
//  "t_quantile", "gradient_ci_half_width", "coefficients": [{"name", "std_error_floor",
//  "ci_half_width_floor", "std_error_floor_units", "ci_half_width_floor_units"}], "assumption", "note"}.
// `mechanism`: the gradient's (on [-1, 1]); `batch`: the batch used (ModelBatch).
nlohmann::json ModelRoundsAdvice(const ModelDefinition& model, const NumericMechanism& mechanism, long long batch,
                                 std::int64_t respondents);

}  // namespace deniable
