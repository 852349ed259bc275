// A model's design advice (RegressionQuestionKind::DesignAdvice): for n
// expected respondents, how the rounds fall (respondents per round, rounds,
// rounds per chain, whether the results will have an interval) and a rough
// standard error of each coefficient.
//
// The rough figure is averaged SGD's asymptotic error from its gradient noise
// (Polyak-Ruppert: the average of A iterates around the optimum b* has
// covariance H^-1 S H^-1 / A): per round each component's gradient is the
// mean of about G / (d + 1) reports, each with variance at least v = the
// mechanism's smallest Var(y | x) on [-1, 1], times clip^2, so
// S = (d + 1) v clip^2 / G on the diagonal; H is the squared error's Hessian
// 2 E[x~ x~^T] (+ ridge on the slopes), with features spread evenly and
// independently over their ranges: diag(2, 2/3 + ridge, ...) on the
// normalised scale. A = the rounds the results average: each chain's last
// half (model_results.h). The raw units follow by RawCoefficients' linearity.
//
// Rough, not an interval and not a bound: the chains' finite runs (the
// learning rate's start from zero, iterates averaged before they settle) make
// the real spread differ; bench/model_advice_bench measured the run-to-run
// standard deviation of the published coefficients at 0.73 to 1.8 times this
// figure (Piecewise, epsilon 1, 4,000 to 64,000 respondents, 48 runs each).
// Clipping bias is not in it; features bunched in part of their range give a
// smaller H and larger errors. The results' own interval (the chains'
// disagreement) is what to read after collection; with fewer than two
// chains, or a chain without a complete round, there is none.
#pragma once

#include <cstdint>

#include <nlohmann/json.hpp>

#include "core/kinds/linear_regression/model_definition.h"
#include "core/numeric/numeric_mechanism.h"

namespace deniable {

// {"kind": "model_rounds", "respondents", "epsilon", "mechanism", "batch", "chains", "components",
//  "rounds", "rounds_per_chain", "averaged_rounds", "respondents_per_chain_step", "interval",
//  "t_quantile", "gradient_ci_half_width", "coefficients": [{"name", "std_error",
//  "ci_half_width" (t(K - 1) standard errors, as the results' interval), "std_error_units",
//  "ci_half_width_units"}], "assumption", "note"}; the coefficients' numbers null before a round completes.
// `mechanism`: the gradient's (on [-1, 1]); `batch`: the batch used (ModelBatch).
nlohmann::json ModelRoundsAdvice(const ModelDefinition& model, const NumericMechanism& mechanism, long long batch,
                                 std::int64_t respondents);

}  // namespace deniable
