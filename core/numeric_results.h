// From a numeric question's aggregate (a fine histogram of reported values) to
// the results document: the reconstructed distribution as a density and CDF
// on m points, a histogram for any bin width, summary statistics, each with a
// 95% parametric-bootstrap band, plus the unbiased mean with its CI for the
// mechanisms whose reports are unbiased (Laplace, Duchi, Piecewise, Hybrid).
//
// Estimators (all but kde_sqp on the exact cell-integrated transition matrix,
// ems_estimator.h): "pml" (default: penalised maximum likelihood, EM with a
// curvature penalty whose lambda is the sqrt(N) rule, lowered for one-value
// mechanisms by the reports' marginal likelihood: curvature_penalty_choice.h), "ems" (EM with [1, 2, 1] smoothing, Li et al. 2020),
// "em" (no smoothing: the MLE), and
// "kde_sqp" (the RVNS paper's KDE + symmetric-KL + SQP, with the digest's
// fixes; RVNS only, server only). Cost: O(iterations x grid x band) for the
// estimate and B times that for the bootstrap, independent of the number of
// reports, and capped by a work budget (work_budget.h) per question: the
// point estimate (with PML's penalty search) may use half of it, and each
// bootstrap replicate in turn an equal share of what is left. A fit or
// replicate that runs out stops where it is, and the result says so (fit
// stopped_by "work_budget", bootstrap replicates_cut_short, a warning).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "core/aggregate.h"
#include "core/ems_estimator.h"
#include "core/survey.h"

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
// The error of a numeric question whose estimation was cancelled (the
// document is then incomplete and must be discarded).
inline constexpr const char* kEstimationCancelled = "estimation cancelled";
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
};

// Validates the options against the question ("bin_width must be ...").
Status ValidateNumericEstimateOptions(const Question& question, const NumericEstimateOptions& options);

// `cancelled` (optional) is polled as the estimation goes; once it returns
// true the estimation stops within one map step (or one SLSQP iteration) and
// the result is the error kEstimationCancelled.
Result<nlohmann::json> NumericQuestionResultToJson(const Question& question, const QuestionAggregate& aggregate,
                                                   const NumericEstimateOptions& options,
                                                   const std::function<bool()>& cancelled = {});

}  // namespace deniable
