// EM and EMS distribution estimation from a numeric histogram (Li, Wang,
// Lopuhaä-Zwakenberg, Li, Škorić, SIGMOD 2020, "Estimating Numerical
// Distributions under Local Differential Privacy", §4 "EMS"). Not the RVNS
// paper's estimator (that is kde_sqp_estimator.h); the digest (§7.6, P15)
// found this one far more accurate on the same reports.
//
// Model: the output cell counts c (a NumericHistogram) are multinomial with
// probabilities T f, where T is the exact cell-integrated transition matrix
// (transition_matrix.h) and f the unknown input cell probabilities. EM
// maximises the log-likelihood L(f) = sum_j c_j ln (T f)_j:
//     f_i <- f_i * sum_j T[j][i] c_j / (T f)_j  /  sum_j c_j
// which keeps f >= 0 and sum f = 1 (columns of T sum to 1). EMS adds, after
// each M-step, the binomial smoothing f_i <- (f_i-1 + 2 f_i + f_i+1)/4, with
// the truncated, renormalised kernels (2 f_0 + f_1)/3 and (f_m-2 + 2 f_m-1)/3
// at the ends (as public implementations of the paper's EMS), and then
// renormalises f to sum 1. Plain EM (smoothing off) converges to the maximum
// likelihood estimate; with exact, noise-free counts n T f that is f itself.
//
// Penalised EM (EmSmoothing::kCurvature, the default; "pml" in results):
// EM whose smoothing step is CurvatureSmooth (curvature_smoother.h), one
// Newton step of the M-step of the penalised log-likelihood
//     Q(f) = L(f) - lambda m^5 sum_i (f_i - 2 f_i+1 + f_i+2)^2
// (lambda = curvature_penalty; m^5 makes it grid-independent). Its fixed
// point satisfies Q's stationarity conditions to first order in the
// smoothing, so the result is (close to) the penalised maximum-likelihood
// estimate: unlike EMS's, whose [1, 2, 1] smoothing has the same strength at
// every n, its bias vanishes as N grows (the default lambda grows like sqrt(N)
// while L grows like N), and it does not depend on the grid, the start or the
// stopping rule.
// Why: on the RVNS study it is more accurate than EMS and the paper's fixed
// KDE+SQP pipeline (docs/rvns-results.md); the default lambda is chosen there.
//
// Start: the uniform distribution, or options.start (a warm start: the
// bootstrap starts each replicate at the point estimate). Stop when the
// objective (Q for kCurvature, L otherwise) changes by less than
// per_value_tolerance * N nats between two iterations (N = number of values),
// or after max_iterations map steps (reported as not converged). Per value, EM's
// trajectory does not depend on N, so this rule does not by itself make the
// iteration count grow with N, as the EMS paper's absolute 1e-3 nats did (the
// problem's conditioning still changes with N: see coarse_to_fine.h).
// L is computed relative to the saturated model (sum_j c_j ln((T f)_j N /
// c_j), near 0 at a good fit), which keeps it precise to about 1e-16 nats per
// value: tolerances below ~1e-15 are noise.
//
// Acceleration: for kNone and kCurvature (which have an objective) the
// iteration is accelerated by SQUAREM (Varadhan & Roland 2008, scheme S3):
// two map steps give r = F(f) - f and v = F(F(f)) - 2 F(f) + f; the step
// f - 2 a r + a^2 v with a = -|r|/|v| (at most -1, where it equals F(F(f)))
// is clipped at 0, renormalised and followed by one map step, and kept only if
// its objective is at least that of f (else F(F(f)) is kept: the published
// monotone safeguard). It reaches the same fixed point
// in several times fewer map steps. EMS (kBinomial) is not accelerated: it has
// no objective to safeguard with, and its result depends on where it stops.
//
// Cost: two passes over T's nonzero bands per map step, O(m * cells).
// RVNS with m = 1000 and 1024 cells: about 0.33 ms per map step.
//
// Work budget (options.budget, work_budget.h): each map step is charged
// 2 x T.band_entries() before it is taken (a SQUAREM cycle 7 x); when the
// budget refuses, the run stops where it is (stop = kWorkBudget, or
// kCancelled when the budget's callback said so), not converged.
#pragma once

#include <optional>
#include <vector>

#include "core/distribution/numeric_histogram.h"
#include "core/common/result.h"
#include "core/distribution/transition_matrix.h"
#include "core/common/work_budget.h"

namespace deniable {

inline constexpr double kDefaultEmsPerValueTolerance = 1e-10;
inline constexpr int kDefaultEmsMaxIterations = 10000;
// The default lambda of the curvature penalty grows like the square root of the
// number of values N: lambda = kCurvaturePenaltyPerRootValue * sqrt(N). A fixed
// lambda makes the smoothing relative to the likelihood fall like 1/N, and no
// fixed value worked across n (`build/pml_penalty`; docs/rvns-results.md,
// "Choosing the curvature penalty"): at n = 50,000 (the study's RVNS settings,
// one repetition, seeds other than the study's) the mean W1 ratio to the best
// fixed lambda of {1e-3, 3e-3, 1e-2, 3e-2, 1e-1} was 1.29, 1.15, 1.13, 1.24, 1.63;
// at a weak channel with n = 3,000 (RVNS window 4 on [10, 60], k = 2,
// gamma = 0.25, normal(26, 4) answers, N = 6,000) lambda = 1e-2 biased the mean
// by 2.1 (1e-3: 0.75, 1e-4: 0.55); and at n = 10^6, m = 1000 a lambda of 1e-3
// left EM so weakly regularised that it had not converged after 10,000 map
// steps. 1e-5 sqrt(N) (7.7e-4 at N = 6,000, 2.2e-3 to 4.5e-3 at N = 50,000 to
// 200,000, 1.4e-2 at N = 2 x 10^6) had ratio 1.13 on the first test, bias 0.66
// on the second, and converges on the third. An explicit curvature_penalty
// overrides it; numeric results lower it for one-value mechanisms when the
// reports' marginal likelihood asks for less smoothing (curvature_penalty_choice.h).
inline constexpr double kCurvaturePenaltyPerRootValue = 1e-5;

enum class EmSmoothing {
  kNone,       // plain EM: the maximum likelihood estimate
  kBinomial,   // EMS: [1, 2, 1]/4 after each M-step (Li et al. 2020)
  kCurvature,  // penalised EM with the curvature penalty (the default)
};

struct EmsOptions {
  EmSmoothing smoothing = EmSmoothing::kCurvature;
  std::optional<double> curvature_penalty;                    // lambda >= 0 (kCurvature only); default above
  double per_value_tolerance = kDefaultEmsPerValueTolerance;  // > 0, nats per value
  int max_iterations = kDefaultEmsMaxIterations;              // >= 1 map steps
  std::vector<double> start;                                  // empty: uniform; else m cells, >= 0, not all 0
  bool accelerate = true;                                     // SQUAREM (kNone and kCurvature only)
  WorkBudget* budget = nullptr;                               // not owned; null: only max_iterations bounds the work
};

// Why a run ended.
enum class EmStop {
  kConverged,     // the objective stopped changing
  kIterationCap,  // max_iterations map steps
  kWorkBudget,    // options.budget ran out
  kCancelled,     // options.budget's cancellation callback returned true
};

struct EmsResult {
  std::vector<double> probabilities;  // input cell probabilities, >= 0, sum 1
  double log_likelihood = 0.0;        // sum_j c_j ln (T f)_j at the result
  double objective = 0.0;             // Q at the result for kCurvature, else L
  int iterations = 0;                 // map steps (EM + smoothing) taken
  bool converged = false;             // false: stopped at max_iterations or by the budget
  EmStop stop = EmStop::kIterationCap;
};

// Counts (one per output cell of T, non-negative, finite, not all zero; they
// need not be integers: expected counts are accepted).
Result<EmsResult> EstimateEms(const std::vector<double>& output_counts, const TransitionMatrix& transition,
                              const EmsOptions& options = {});
// The histogram must have T's output range and cell count.
Result<EmsResult> EstimateEms(const NumericHistogram& histogram, const TransitionMatrix& transition,
                              const EmsOptions& options = {});

// The lambda EstimateEms uses for `values` reported values (N).
double CurvaturePenalty(const EmsOptions& options, double values);

// A warm start from an earlier solution: `probabilities` mixed 1% with the
// uniform distribution. EM's multiplicative update cannot revive a cell at
// exactly 0, so a start must have no zero cells; 1% costs a few map steps.
std::vector<double> NudgedTowardsUniform(std::vector<double> probabilities);

// The smoothing step alone (exposed for tests): binomial [1, 2, 1]/4 with
// renormalised end kernels, then renormalised to the input's total.
std::vector<double> BinomialSmooth(const std::vector<double>& probabilities);

}  // namespace deniable
