// Simulation for survey design: N simulated respondents drawn from a known
// truth go through the same client perturbation (PerturbAnswers), the same
// report validation (ParseReport), the same aggregate and the same estimators
// as real respondents. Pure: the caller does the I/O and injects the seed.
#pragma once

#include <cstdint>
#include <functional>

#include <nlohmann/json.hpp>

#include "core/numeric_results.h"
#include "core/result.h"
#include "core/survey.h"

namespace deniable {

// truth: one entry per question.
//   categorical: {"<question id>": {"frequencies": [w_0, ..., w_{k-1}]}} (weights >= 0, normalised);
//   numeric: a distribution or {"values": [...]} (core/numeric_truth.h); each
//   simulated respondent's answer is a number drawn from it.
// progress(done) is called every `progress_every` respondents. `numeric` are the
// estimator options of numeric questions (as the server's results).
struct SimulationOptions {
  std::int64_t respondents = 1000;
  std::uint64_t seed = 1;
  std::function<void(std::int64_t)> progress;
  std::int64_t progress_every = 100000;
  NumericEstimateOptions numeric = {};
};

// The result document: per question, epsilon, estimates with 95% CIs, the
// truth (the simulated respondents' actual frequencies) and error metrics
// (L1, L-infinity, MSE over options, and CI coverage).
// Numeric questions get "truth" {mean, std_dev, median, lower_quartile,
// upper_quartile} of the simulated answers (core/empirical_comparison.h) and
// "errors" {wasserstein1 (reconstructed distribution vs the answers' empirical
// CDF, in the answer's units), mean, std_dev, median (absolute errors of the
// estimates), mean_covered (the true mean inside the estimate's 95% band),
// unbiased_mean_covered (the same for the unbiased mean's CI, null when the
// mechanism has none)}; both null if the estimator failed.
// Memory: the numeric answers are kept (8 bytes per respondent per numeric question).
Result<nlohmann::json> Simulate(const Survey& survey, const nlohmann::json& truth, const SimulationOptions& options);

}  // namespace deniable
