#include "core/distribution/curvature_penalty_choice.h"

#include <Eigen/Cholesky>
#include <Eigen/Core>
#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

namespace deniable {
namespace {

// H = T' diag(c / (T f)^2) T over the input cells.
Eigen::MatrixXd ObservedInformation(const std::vector<double>& counts, const TransitionMatrix& transition,
                                    const std::vector<double>& f) {
  const int m = transition.input_cells();
  const std::vector<double> predicted = transition.Apply(f);
  Eigen::MatrixXd information = Eigen::MatrixXd::Zero(m, m);
  for (int i = 0; i < m; ++i) {
    for (int k = i; k < m; ++k) {
      const int begin = std::max(transition.band_begin(i), transition.band_begin(k));
      const int end = std::min(transition.band_end(i), transition.band_end(k));
      double sum = 0.0;
      for (int j = begin; j < end; ++j) {
        if (counts[j] > 0.0 && predicted[j] > 0.0) {
          sum += counts[j] / (predicted[j] * predicted[j]) * transition.at(j, i) * transition.at(j, k);
        }
      }
      information(i, k) = information(k, i) = sum;
    }
  }
  return information;
}

// Adds S = 2 weight D'D (D: second differences) to `matrix`.
void AddCurvaturePenalty(double weight, Eigen::MatrixXd& matrix) {
  const Eigen::Index m = matrix.rows();
  const double coefficients[3] = {1.0, -2.0, 1.0};
  for (Eigen::Index r = 0; r + 2 < m; ++r) {
    for (int u = 0; u < 3; ++u) {
      for (int v = 0; v < 3; ++v) matrix(r + u, r + v) += 2.0 * weight * coefficients[u] * coefficients[v];
    }
  }
}

// The matrix restricted to directions whose entries sum to 0, in the basis
// e_i - e_last (i < last): Z' M Z, i.e. M[u][v] - M[u][last] - M[last][v] +
// M[last][last] (summed in that order).
Eigen::MatrixXd OnTangentSpace(const Eigen::MatrixXd& full) {
  const Eigen::Index r = full.rows() - 1;
  Eigen::MatrixXd out = full.topLeftCorner(r, r);
  out.colwise() -= full.col(r).head(r);
  out.rowwise() -= full.row(r).head(r);
  out.array() += full(r, r);
  return out;
}

}  // namespace

SmoothnessCriteria EvaluateSmoothness(const std::vector<double>& counts, const TransitionMatrix& transition,
                                      const EmsResult& fit, double penalty) {
  const int m = transition.input_cells();
  constexpr double kMinusInfinity = -std::numeric_limits<double>::infinity();
  const SmoothnessCriteria undefined = {kMinusInfinity, std::numeric_limits<double>::quiet_NaN()};
  if (m < 3) return undefined;
  const double weight = penalty * std::pow(static_cast<double>(m), 5.0);
  const Eigen::MatrixXd full_information = ObservedInformation(counts, transition, fit.probabilities);
  Eigen::MatrixXd penalised = full_information;
  AddCurvaturePenalty(weight, penalised);
  const Eigen::MatrixXd information = OnTangentSpace(full_information);
  // Eigen::LLT (dense Cholesky, no pivoting): Z'(H + S)Z is symmetric and, when
  // LAML is defined, positive definite, so LLT is the cheapest factorisation
  // and doubles as the test of definiteness: its info() is NumericalIssue at
  // the first pivot <= 0. LDLT (pivoted) would also factor indefinite
  // matrices, which must instead be reported as undefined.
  const Eigen::MatrixXd penalised_tangent = OnTangentSpace(penalised);
  const Eigen::LLT<Eigen::MatrixXd> llt(penalised_tangent);
  if (llt.info() != Eigen::Success) return undefined;
  // Two more failures: a NaN pivot, which LLT lets through (x <= 0 is false
  // for NaN), and a pivot within rounding of 0. Where H is 0 along a
  // straight line (S does not penalise lines), Z'(H + S)Z is singular and
  // rounding decides the sign of the last pivot: the hand-written Cholesky
  // this replaced happened to see <= 0, Eigen's blocked one sees about
  // 1e-16 of the largest diagonal entry, which would give a huge spurious
  // LAML. A squared pivot below (m - 1) eps max_u A_uu (the size of
  // Cholesky's backward error; m - 1 the tangent space's dimension) is
  // treated as 0. Fits of real channels stay far above
  // that: over 216 Square Wave fits (epsilon 0.5 to 4, n 10^3 to 10^5,
  // lambda 1e-6 to 1) the smallest squared pivot was 5e-7 max_u A_uu, against
  // (m - 1) eps = 2e-14; the singular case above gives 2e-16.
  const auto factor_diagonal = llt.matrixLLT().diagonal();
  const double pivot_floor = static_cast<double>(penalised_tangent.rows()) * std::numeric_limits<double>::epsilon() *
                             penalised_tangent.diagonal().maxCoeff();
  if (!(factor_diagonal.array().square() > pivot_floor).all()) return undefined;
  // ln det = 2 sum ln L_uu.
  const double log_determinant = 2.0 * factor_diagonal.array().log().sum();
  // trace((H + S)^-1 H) by one solve with H as the right-hand sides (two
  // triangular solves, about r^3 flops, the same work as r vector solves but
  // blocked). Forming the inverse first would cost as much again for the
  // product with H and round twice.
  const double trace = llt.solve(information).trace();
  // r/2 ln(2 lambda m^5) up to a constant, with r = m - 2 the rank of S on the tangent space.
  const double prior = 0.5 * (m - 2) * std::log(weight);
  return {fit.objective + prior - 0.5 * log_determinant, trace};
}

Result<CurvaturePenaltyChoice> ChooseCurvaturePenalty(const std::vector<double>& counts,
                                                      const TransitionMatrix& transition,
                                                      const EmsOptions& options) {
  EmsOptions settings = options;
  settings.smoothing = EmSmoothing::kCurvature;
  settings.curvature_penalty.reset();
  settings.start.clear();
  const double values = std::accumulate(counts.begin(), counts.end(), 0.0);
  CurvaturePenaltyChoice choice;
  choice.rule_penalty = CurvaturePenalty(settings, values);
  choice.penalty = choice.rule_penalty;
  double best = -std::numeric_limits<double>::infinity();
  const double step = std::sqrt(10.0);  // half a decade
  for (double penalty = choice.rule_penalty; penalty >= kMinChosenCurvaturePenalty; penalty /= step) {
    settings.curvature_penalty = penalty;
    DENIABLE_ASSIGN_OR_RETURN(auto fit, EstimateEms(counts, transition, settings));
    ++choice.fits;
    // A fit the work budget cut short cannot be compared: the search ends
    // (with it, if it is the rule's, which the caller then reports as cut short).
    const bool cut_short = fit.stop == EmStop::kWorkBudget || fit.stop == EmStop::kCancelled;
    if (cut_short && choice.fits > 1) break;
    if (cut_short) {
      choice.fit = std::move(fit);
      break;
    }
    const double criterion = EvaluateSmoothness(counts, transition, fit, penalty).laplace_marginal_likelihood;
    // The rule's fit is always kept; a weaker one only if it gains enough.
    if (choice.fits > 1 && !(criterion > best + kMinMarginalLikelihoodGain)) break;
    best = criterion;
    choice.penalty = penalty;
    settings.start = NudgedTowardsUniform(fit.probabilities);  // the next, weaker fit starts here
    choice.fit = std::move(fit);
    if (!std::isfinite(criterion)) break;  // LAML undefined at the rule: nothing to compare with
  }
  return choice;
}

}  // namespace deniable
