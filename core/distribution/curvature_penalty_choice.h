// PML's curvature penalty for mechanisms with one value per report: the
// sqrt(N) rule, lowered when the reports' marginal likelihood asks for less
// smoothing.
//
// Why: the rule lambda = 1e-5 sqrt(N) (ems_estimator.h) was tuned on smooth
// answers and over-smooths a narrow peak seen through an informative channel:
// sleep hours (normal(7, 1) on a uniform floor over [0, 12]) through Square
// Wave epsilon = 2, n = 10^4, had W1 0.115 h against 0.078 h at lambda = 1e-4,
// and the 95% interval of the upper quartile covered the truth in 19 of 40
// surveys (32 of 40 at 1e-4): the smoothing bias was larger than the interval.
//
// Criterion: the Laplace approximation of the marginal likelihood (LAML; Wood
// 2011, the default smoothness selection of mgcv), reading the penalty as a
// Gaussian prior on the cell probabilities f with precision S = 2 lambda m^5
// D'D (improper along straight lines):
//     LAML(lambda) = Q(f_lambda) + (r/2) ln lambda - (1/2) ln det Z'(H + S)Z,
// Q the penalised log-likelihood at PML's fit f_lambda, H = T' diag(c / (T
// f)^2) T the observed information of the multinomial log-likelihood, Z a
// basis of the simplex's tangent space (sum of changes 0) and r = m - 2 the
// rank of S there (constant terms dropped).
//
// Search: lambda = rule x 10^(-j/2) for j = 0, 1, 2, ... down to
// kMinChosenCurvaturePenalty, each fit warm-started from the last, while LAML
// increases by more than kMinMarginalLikelihoodGain nats; the last such step
// wins. The threshold stops the walk where LAML is flat because the channel
// does not identify the distribution beyond a few moments (Duchi's two output
// values: every step gained under 0.01 nats, and without it lambda fell to the
// floor); real gains are larger (sleep hours, n = 10^4: +7.9 then +0.25 nats,
// then a loss). Only downwards: above the rule LAML's
// choice was erratic on weak channels, where the likelihood barely depends on
// lambda (it chose lambda = 1 on Laplace epsilon = 0.5), and it did not beat the
// rule on smooth answers (W1 lower in 26 of 55 chi-square settings of the
// RVNS study's Square Wave and Laplace grids). Lowered only, it changed 7 of those
// 55 settings, by at most 25%, and it lowered lambda on sleep hours at every n.
// Only one value per report: the multinomial is then the exact likelihood;
// with k > 1 values per respondent it counts dependent values as independent
// and LAML chose a penalty far below the rule even where the rule was better
// (RVNS BMI, n = 10^5: RMSE of the mean 0.34 against 0.12). build/pml_aic
// prints the measurements.
//
// Cost: one PML fit and one O(m^3) Cholesky factorisation (Eigen::LLT) per lambda tried
// (typically 2 to 5), on a grid of at most 100 cells (lambda does not depend on
// the grid).
#pragma once

#include <vector>

#include "core/distribution/ems_estimator.h"
#include "core/common/result.h"
#include "core/distribution/transition_matrix.h"

namespace deniable {

inline constexpr double kMinChosenCurvaturePenalty = 1e-6;
inline constexpr double kMinMarginalLikelihoodGain = 0.1;  // nats per half-decade step

struct CurvaturePenaltyChoice {
  double penalty = 0.0;       // the lambda chosen
  double rule_penalty = 0.0;  // 1e-5 sqrt(N)
  int fits = 0;               // PML fits the search ran
  EmsResult fit;              // PML at `penalty` on the search's grid (callers reuse it rather than refit)
};

struct SmoothnessCriteria {
  double laplace_marginal_likelihood;  // LAML above; -infinity when Z'(H + S)Z is not positive definite (to rounding)
  double effective_dimension;          // trace((H + S)^-1 H) on the tangent space (for AIC: build/pml_aic)
};

// Both criteria at a PML fit with penalty `penalty` (> 0), computed from one
// factorisation of Z'(H + S)Z.
SmoothnessCriteria EvaluateSmoothness(const std::vector<double>& counts, const TransitionMatrix& transition,
                                      const EmsResult& fit, double penalty);

// `options` supplies the stopping rule and the work budget (its
// curvature_penalty and start are ignored); counts as for EstimateEms. A fit
// cut short by the budget ends the search (the rule's fit, cut short, is then
// the choice's fit).
Result<CurvaturePenaltyChoice> ChooseCurvaturePenalty(const std::vector<double>& counts,
                                                      const TransitionMatrix& transition,
                                                      const EmsOptions& options = {});

}  // namespace deniable
