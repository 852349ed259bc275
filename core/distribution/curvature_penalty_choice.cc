#include "core/distribution/curvature_penalty_choice.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

namespace deniable {
namespace {

using Matrix = std::vector<std::vector<double>>;

// H = T' diag(c / (T f)^2) T over the input cells.
Matrix ObservedInformation(const std::vector<double>& counts, const TransitionMatrix& transition,
                           const std::vector<double>& f) {
  const int m = transition.input_cells();
  const std::vector<double> predicted = transition.Apply(f);
  Matrix information(m, std::vector<double>(m, 0.0));
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
      information[i][k] = information[k][i] = sum;
    }
  }
  return information;
}

// Adds S = 2 weight D'D (D: second differences) to `matrix`.
void AddCurvaturePenalty(double weight, Matrix& matrix) {
  const int m = static_cast<int>(matrix.size());
  const double coefficients[3] = {1.0, -2.0, 1.0};
  for (int r = 0; r + 2 < m; ++r) {
    for (int u = 0; u < 3; ++u) {
      for (int v = 0; v < 3; ++v) matrix[r + u][r + v] += 2.0 * weight * coefficients[u] * coefficients[v];
    }
  }
}

// The matrix restricted to directions whose entries sum to 0, in the basis
// e_i - e_last (i < last): Z' M Z.
Matrix OnTangentSpace(const Matrix& full) {
  const std::size_t r = full.size() - 1;
  Matrix out(r, std::vector<double>(r));
  for (std::size_t u = 0; u < r; ++u) {
    for (std::size_t v = 0; v < r; ++v) out[u][v] = full[u][v] - full[u][r] - full[r][v] + full[r][r];
  }
  return out;
}

// In-place lower Cholesky factor; false if the matrix is not positive definite.
bool CholeskyInPlace(Matrix& a) {
  const std::size_t n = a.size();
  for (std::size_t j = 0; j < n; ++j) {
    double diagonal = a[j][j];
    for (std::size_t k = 0; k < j; ++k) diagonal -= a[j][k] * a[j][k];
    if (!(diagonal > 0.0)) return false;
    a[j][j] = std::sqrt(diagonal);
    for (std::size_t i = j + 1; i < n; ++i) {
      double sum = a[i][j];
      for (std::size_t k = 0; k < j; ++k) sum -= a[i][k] * a[j][k];
      a[i][j] = sum / a[j][j];
    }
  }
  return true;
}

// Solves L L' x = b with the factor from CholeskyInPlace.
std::vector<double> CholeskySolve(const Matrix& l, std::vector<double> b) {
  const std::size_t n = l.size();
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t k = 0; k < i; ++k) b[i] -= l[i][k] * b[k];
    b[i] /= l[i][i];
  }
  for (std::size_t i = n; i-- > 0;) {
    for (std::size_t k = i + 1; k < n; ++k) b[i] -= l[k][i] * b[k];
    b[i] /= l[i][i];
  }
  return b;
}

}  // namespace

SmoothnessCriteria EvaluateSmoothness(const std::vector<double>& counts, const TransitionMatrix& transition,
                                      const EmsResult& fit, double penalty) {
  const int m = transition.input_cells();
  const double weight = penalty * std::pow(static_cast<double>(m), 5.0);
  const Matrix full_information = ObservedInformation(counts, transition, fit.probabilities);
  Matrix penalised = full_information;
  AddCurvaturePenalty(weight, penalised);
  const Matrix information = OnTangentSpace(full_information);
  Matrix factor = OnTangentSpace(penalised);
  constexpr double kMinusInfinity = -std::numeric_limits<double>::infinity();
  if (m < 3 || !CholeskyInPlace(factor)) return {kMinusInfinity, std::numeric_limits<double>::quiet_NaN()};
  double log_determinant = 0.0;
  for (std::size_t u = 0; u < factor.size(); ++u) log_determinant += 2.0 * std::log(factor[u][u]);
  double trace = 0.0;
  for (std::size_t v = 0; v < information.size(); ++v) {
    std::vector<double> column(information.size());
    for (std::size_t u = 0; u < information.size(); ++u) column[u] = information[u][v];
    trace += CholeskySolve(factor, column)[v];
  }
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
    auto fit = EstimateEms(counts, transition, settings);
    if (!fit) return MakeError(fit.error());
    ++choice.fits;
    // A fit the work budget cut short cannot be compared: the search ends
    // (with it, if it is the rule's, which the caller then reports as cut short).
    const bool cut_short = fit->stop == EmStop::kWorkBudget || fit->stop == EmStop::kCancelled;
    if (cut_short && choice.fits > 1) break;
    if (cut_short) {
      choice.fit = std::move(fit).value();
      break;
    }
    const double criterion = EvaluateSmoothness(counts, transition, *fit, penalty).laplace_marginal_likelihood;
    // The rule's fit is always kept; a weaker one only if it gains enough.
    if (choice.fits > 1 && !(criterion > best + kMinMarginalLikelihoodGain)) break;
    best = criterion;
    choice.penalty = penalty;
    settings.start = NudgedTowardsUniform(fit->probabilities);  // the next, weaker fit starts here
    choice.fit = std::move(fit).value();
    if (!std::isfinite(criterion)) break;  // LAML undefined at the rule: nothing to compare with
  }
  return choice;
}

}  // namespace deniable
