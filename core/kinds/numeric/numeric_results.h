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
// bootstrap replicate an equal share of what is left (set per batch of replicates: numeric_results.cc). A fit or
// replicate that runs out stops where it is, and the result says so (fit
// stopped_by "work_budget", bootstrap replicates_cut_short, a warning).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "core/common/parallel_work.h"
#include "core/kinds/numeric/numeric_estimate_options.h"
#include "core/kinds/numeric/numeric_question_kind.h"
#include "core/survey/aggregate.h"
#include "core/survey/results.h"
#include "core/survey/survey.h"

namespace deniable {

// Validates the options against the question ("bin_width must be ...").
Status ValidateNumericEstimateOptions(const NumericQuestionKind& kind, const NumericEstimateOptions& options);
Status ValidateNumericEstimateOptions(const Question& question, const NumericEstimateOptions& options);

// The result without id, text and type (the survey adds them).
// `cancelled` (optional) is polled as the estimation goes; once it returns
// true the estimation stops within one map step (or one SLSQP iteration) and
// the result is the error kEstimationCancelled (it must be thread-safe: the
// replicates poll it from `parallel`'s threads).
// `parallel` (optional, parallel_work.h) runs the bootstrap's replicates; the
// document is the same whatever it does (one thread or many).
Result<nlohmann::json> NumericResultToJson(const NumericQuestionKind& kind, const NumericAggregate& aggregate,
                                           const NumericEstimateOptions& options,
                                           const std::function<bool()>& cancelled = {},
                                           const ParallelFor& parallel = {});

// A survey's results with typed numeric options (C++ callers: tests, benches).
nlohmann::json SurveyResultsToJson(const Survey& survey, const SurveyAggregate& aggregate,
                                   const NumericEstimateOptions& numeric, const std::function<bool()>& cancelled = {});

}  // namespace deniable
