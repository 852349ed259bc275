// A numeric question's estimation options: the estimator, its grid, the
// points and bins shown, the bootstrap's replicates and PML's penalty. They
// arrive as JSON (an HTTP query's text values, the CLI's flags, or numbers
// from C++ callers) and are read strictly: a value of the wrong form is named
// ("points must be an integer, but is \"12abc\""); the ranges are checked
// against the question by ValidateNumericEstimateOptions (numeric_results.h).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/common/result.h"
#include "core/distribution/ems_estimator.h"
#include "core/survey/interval_target.h"

namespace deniable {

inline constexpr int kDefaultEstimationCells = 100;
inline constexpr int kDefaultDisplayPoints = 200;
inline constexpr int kDefaultResultReplicates = 50;
// A numeric question is flagged when the 95% interval of its mean is wider
// than this fraction of the answer range on each side.
inline constexpr double kUsefulMeanHalfWidth = 0.05;

// The bootstrap re-estimates the distribution once per replicate on the
// estimation grid: cells x replicates bounds the memory and the number of
// re-estimates of a results request; the work budget below bounds its time.
inline constexpr int kMaxBootstrapCost = 20000;
// The work one numeric question's results may take, in work_budget.h units
// (transition-matrix entries visited): about 3 to 4 s of one core of the test
// machine (build/estimation_cost measures it). The default options (PML, 100
// cells, 50 replicates) used at most 2.2e9 of it there (RVNS, n = 10^6), so
// they are not cut; plain em or ems on 1000 cells, which took up to minutes, are.
inline constexpr std::int64_t kDefaultNumericWorkBudget = 8000000000;
// kde_sqp's SLSQP step costs O(cells^3): 1000 cells took about 2 s per
// objective evaluation (a fit did not finish in 19 minutes), 200 cells 6 ms.
inline constexpr int kMaxKdeSqpEstimationCells = 200;
// An upper bound on an analyst's curvature_penalty: far beyond any useful
// smoothing (the default is about 1e-2 at 10^6 values), it keeps the smoother's
// linear system well conditioned.
inline constexpr double kMaxCurvaturePenalty = 1e6;

struct NumericEstimateOptions {
  std::string estimator = "pml";
  int estimation_cells = kDefaultEstimationCells;  // grid over [a, b] the distribution is estimated on
  int points = kDefaultDisplayPoints;              // density / CDF points shown, 2..1000
  std::optional<double> bin_width;                 // histogram bins; default (b - a) / 20
  int replicates = kDefaultResultReplicates;       // parametric bootstrap
  std::optional<double> curvature_penalty;         // PML's lambda, 0..1e6; default 1e-5 sqrt(N) (ems_estimator.h)
  int max_iterations = kDefaultEmsMaxIterations;   // cap on EM-family map steps, 1..100000 (not offered over HTTP)
  std::int64_t work_budget = kDefaultNumericWorkBudget;  // per question, >= 1 (not offered over HTTP)
  // How the bootstrap's replicates become intervals (bootstrap.h):
  // "bias_aware" (default), "basic" or "percentile" (not offered over HTTP:
  // the coverage benchmark compares them).
  std::string interval_method = "bias_aware";
  // What the intervals are for ("interval": "population", the default, or
  // "respondents": interval_target.h). The bootstrap's intervals are for the
  // population; for these respondents only the mean has one of its own
  // (numeric_statistics.h says which and why).
  IntervalTarget target = IntervalTarget::kPopulation;
  // The levels mechanism's HierA (seed 003): the paper's reuse count mu
  // (1..16; 1, no conversion, is never worse) and its clamp of debiased
  // counts (biased; off by default). Other mechanisms ignore them.
  int mu = 1;
  bool clamp = false;
};

// The options offered to analysts (query parameters, CLI flags); the others
// (max_iterations, work_budget) are for C++ callers.
std::vector<std::string> PublicNumericEstimateOptionNames();

// Reads the fields it knows from `options` (an object); the rest are ignored.
Result<NumericEstimateOptions> ParseNumericEstimateOptions(const nlohmann::json& options);
nlohmann::json NumericEstimateOptionsToJson(const NumericEstimateOptions& options);
// The options with the defaults filled in, as JSON.
Result<nlohmann::json> CanonicalNumericEstimateOptions(const nlohmann::json& options);

}  // namespace deniable
