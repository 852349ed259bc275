// Simulation for survey design: N simulated respondents drawn from a known
// truth go through the same client perturbation (PerturbAnswers), the same
// report validation (ParseReport), the same aggregate and the same estimators
// as real respondents. Pure: the caller does the I/O and injects the seed.
#pragma once

#include <cstdint>
#include <functional>

#include <nlohmann/json.hpp>

#include "core/result.h"
#include "core/survey.h"

namespace deniable {

// truth: {"<question id>": {"frequencies": [w_0, ..., w_{k-1}]}} (weights >= 0,
// normalised). progress(done) is called every `progress_every` respondents.
struct SimulationOptions {
  std::int64_t respondents = 1000;
  std::uint64_t seed = 1;
  std::function<void(std::int64_t)> progress;
  std::int64_t progress_every = 100000;
};

// The result document: per question, epsilon, estimates with 95% CIs, the
// truth (the simulated respondents' actual frequencies) and error metrics
// (L1, L-infinity, MSE over options, and CI coverage).
Result<nlohmann::json> Simulate(const Survey& survey, const nlohmann::json& truth, const SimulationOptions& options);

}  // namespace deniable
