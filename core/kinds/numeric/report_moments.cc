#include "core/kinds/numeric/report_moments.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <functional>

#include "core/distribution/linear_moments.h"
#include "core/frequency/frequency_estimator.h"

namespace deniable {
namespace {

// E[y|u] = a0 + a1 u and E[y^2|u] = b0 + b1 u + b2 u^2 on u in [0, 1].
struct MomentPolynomials {
  double a0, a1, b0, b1, b2;
};

// The polynomials through u = 0, 1/2, 1, checked at u = 1/4 and 3/4: a
// mechanism whose moments are not such polynomials has none.
std::optional<MomentPolynomials> FitPolynomials(const NumericMechanism::ReportMoments& moments, NumericRange range) {
  auto at = [&](const std::function<double(double)>& f, double u) { return f(range.low + u * range.width()); };
  const double m0 = at(moments.mean, 0.0), m1 = at(moments.mean, 1.0);
  const double s0 = at(moments.mean_square, 0.0), s_half = at(moments.mean_square, 0.5),
               s1 = at(moments.mean_square, 1.0);
  MomentPolynomials p{m0, m1 - m0, s0, 0.0, 0.0};
  // Quadratic through three points: b2 from the second difference.
  p.b2 = 2.0 * (s1 - 2.0 * s_half + s0);
  p.b1 = s1 - s0 - p.b2;
  const double scale = std::max({std::abs(s0), std::abs(s_half), std::abs(s1), 1e-300});
  for (double u : {0.25, 0.75}) {
    const double mean_error = at(moments.mean, u) - (p.a0 + p.a1 * u);
    const double square_error = at(moments.mean_square, u) - (p.b0 + p.b1 * u + p.b2 * u * u);
    if (std::abs(mean_error) > 1e-9 * std::max(std::abs(m0) + std::abs(m1), 1e-300) ||
        std::abs(square_error) > 1e-9 * scale) {
      return std::nullopt;
    }
  }
  if (std::abs(p.b2) <= 1e-9 * scale) p.b2 = 0.0;  // E[y^2|x] does not depend on x^2
  return p;
}

// The answers' sd (range width w times the root of the variance of u) and its
// interval from the variance's, clipped at 0.
MomentInterval StandardDeviationInterval(double w, double variance, double half_width) {
  auto sd = [w](double v) { return w * std::sqrt(std::max(0.0, v)); };
  return {sd(variance), sd(variance - half_width), sd(variance + half_width)};
}

// The reports' mean vector and covariance of (y, y^2): means exact (the
// histogram's sums), covariance from the cells' midpoints.
struct ReportSums {
  double n, mean, mean_square;
  double var_y, cov_y_y2, var_y2;
};

ReportSums SumsOf(const NumericHistogram& histogram) {
  ReportSums sums{};
  sums.n = static_cast<double>(histogram.values());
  sums.mean = histogram.sum() / sums.n;
  sums.mean_square = histogram.sum_of_squares() / sums.n;
  double m1 = 0, m2 = 0, m3 = 0, m4 = 0;
  for (int j = 0; j < histogram.cells(); ++j) {
    const double count = static_cast<double>(histogram.counts()[static_cast<std::size_t>(j)]);
    if (count == 0.0) continue;
    const double y = 0.5 * (histogram.CellEdge(j) + histogram.CellEdge(j + 1));
    m1 += count * y, m2 += count * y * y, m3 += count * y * y * y, m4 += count * y * y * y * y;
  }
  m1 /= sums.n, m2 /= sums.n, m3 /= sums.n, m4 /= sums.n;
  const double correction = sums.n / (sums.n - 1.0);  // unbiased sample covariances
  sums.var_y = std::max(0.0, (m2 - m1 * m1) * correction);
  sums.cov_y_y2 = (m3 - m1 * m2) * correction;
  sums.var_y2 = std::max(0.0, (m4 - m2 * m2) * correction);
  return sums;
}

// From the bias-aware linear estimates (linear_moments.h): intervals add the bias bounds.
ReportMomentEstimates FromLinearMoments(const LinearMoments* linear, NumericRange range) {
  const double w = range.width();
  const LinearMoment& m1 = linear->raw[0];
  const LinearMoment& m2 = linear->raw[1];
  ReportMomentEstimates estimates;
  estimates.closed_form = false;
  const double mean_half = m1.bias_bound + kZ95 * m1.standard_error;
  estimates.mean = {range.low + w * m1.value, range.low + w * (m1.value - mean_half),
                    range.low + w * (m1.value + mean_half)};
  estimates.spread_identifiable = true;
  const double variance = m2.value - m1.value * m1.value;
  const double bias = m2.bias_bound + 2.0 * std::abs(m1.value) * m1.bias_bound + m1.bias_bound * m1.bias_bound;
  const double se = std::sqrt(std::max(0.0, 4.0 * m1.value * m1.value * m1.standard_error * m1.standard_error -
                                                4.0 * m1.value * linear->covariance[0][1] +
                                                m2.standard_error * m2.standard_error));
  estimates.variance = w * w * variance;
  estimates.standard_deviation = StandardDeviationInterval(w, variance, bias + kZ95 * se);
  return estimates;
}

// Skewness and kurtosis (scale-free, so on u) as functions of the raw moments.
double Skewness(const std::array<double, 4>& m) {
  const double v = m[1] - m[0] * m[0];
  return (m[2] - 3.0 * m[0] * m[1] + 2.0 * m[0] * m[0] * m[0]) / std::pow(v, 1.5);
}
double Kurtosis(const std::array<double, 4>& m) {
  const double v = m[1] - m[0] * m[0];
  return (m[3] - 4.0 * m[0] * m[2] + 6.0 * m[0] * m[0] * m[1] - 3.0 * std::pow(m[0], 4)) / (v * v);
}

// value +- (sum_k |d/dm_k| bias_k + 1.96 sqrt(g' Sigma g)), the gradient by
// central differences; none where the variance's own interval reaches 0
// (the shape of a distribution with no spread is undefined).
std::optional<MomentInterval> ShapeInterval(const LinearMoments& linear,
                                            const std::function<double(const std::array<double, 4>&)>& shape) {
  std::array<double, 4> m{};
  for (int k = 0; k < 4; ++k) m[k] = linear.raw[static_cast<std::size_t>(k)].value;
  const double variance = m[1] - m[0] * m[0];
  const double variance_margin = linear.raw[1].bias_bound + 2.0 * linear.raw[0].bias_bound +
                                 kZ95 * (linear.raw[1].standard_error + 2.0 * linear.raw[0].standard_error);
  if (!(variance > variance_margin)) return std::nullopt;
  const double value = shape(m);
  std::array<double, 4> gradient{};
  for (int k = 0; k < 4; ++k) {
    const double h = 1e-6;
    std::array<double, 4> up = m, down = m;
    up[k] += h, down[k] -= h;
    gradient[k] = (shape(up) - shape(down)) / (2.0 * h);
  }
  double bias = 0.0, variance_of_value = 0.0;
  for (std::size_t a = 0; a < 4; ++a) {
    bias += std::abs(gradient[a]) * linear.raw[a].bias_bound;
    for (std::size_t b = 0; b < 4; ++b) variance_of_value += gradient[a] * gradient[b] * linear.covariance[a][b];
  }
  const double half = bias + kZ95 * std::sqrt(std::max(0.0, variance_of_value));
  if (!std::isfinite(value) || !std::isfinite(half)) return std::nullopt;
  return MomentInterval{value, value - half, value + half};
}

// The mean's interval given the answers (report_moments.h): m1 the answers'
// mean of u estimated from the reports.
MomentInterval RespondentsMean(const MomentPolynomials& p, const ReportSums& sums, NumericRange range, double m1) {
  const double u1 = std::clamp(m1, 0.0, 1.0);
  auto conditional_variance = [&](double m2) {
    return (p.b0 - p.a0 * p.a0) + (p.b1 - 2.0 * p.a0 * p.a1) * u1 + (p.b2 - p.a1 * p.a1) * m2;
  };
  double variance = std::max(conditional_variance(u1 * u1), conditional_variance(u1));  // m2 unknown: the worst
  if (p.b2 != 0.0) {
    const double m2 = std::clamp((sums.mean_square - p.b0 - p.b1 * m1) / p.b2, u1 * u1, u1);
    variance = conditional_variance(m2);
  }
  const double mean = range.low + range.width() * m1;
  const double se = range.width() * std::sqrt(std::max(0.0, variance) / sums.n) / std::abs(p.a1);
  return {mean, mean - kZ95 * se, mean + kZ95 * se};
}

// The closed-form moments (no transition matrix needed); empty without them.
std::optional<ReportMomentEstimates> FromClosedForms(const NumericMechanism& mechanism,
                                                     const NumericHistogram& histogram) {
  const auto moments = mechanism.report_moments();
  if (!moments || histogram.values() != histogram.reports()) return std::nullopt;
  const NumericRange range = mechanism.input_range();
  const auto p = FitPolynomials(*moments, range);
  if (!p || p->a1 == 0.0) return std::nullopt;
  const ReportSums sums = SumsOf(histogram);
  const double w = range.width();

  ReportMomentEstimates estimates;
  const double m1 = (sums.mean - p->a0) / p->a1;
  const double mean_se = w * std::sqrt(sums.var_y / sums.n) / std::abs(p->a1);
  const double mean = range.low + w * m1;
  estimates.mean = {mean, mean - kZ95 * mean_se, mean + kZ95 * mean_se};
  estimates.respondents_mean = RespondentsMean(*p, sums, range, m1);
  if (p->b2 == 0.0) return estimates;

  estimates.spread_identifiable = true;
  const double m2 = (sums.mean_square - p->b0 - p->b1 * m1) / p->b2;
  const double variance = m2 - m1 * m1;  // of u
  // Gradient of the variance with respect to (ybar, y2bar).
  const double g1 = (-p->b1 / p->b2 - 2.0 * m1) / p->a1;
  const double g2 = 1.0 / p->b2;
  const double variance_se =
      std::sqrt(std::max(0.0, g1 * g1 * sums.var_y + 2.0 * g1 * g2 * sums.cov_y_y2 + g2 * g2 * sums.var_y2) / sums.n);
  estimates.variance = w * w * variance;
  estimates.standard_deviation = StandardDeviationInterval(w, variance, kZ95 * variance_se);
  return estimates;
}

}  // namespace

std::optional<ReportMomentEstimates> EstimateFromReportMoments(const NumericMechanism& mechanism,
                                                               const NumericHistogram& histogram,
                                                               const TransitionMatrix* transition) {
  if (histogram.reports() < 2) return std::nullopt;
  std::optional<LinearMoments> linear;
  if (transition != nullptr && transition->output_cells() == histogram.cells()) {
    auto estimated = EstimateLinearMoments(*transition, histogram.counts_as_doubles(), histogram.reports());
    if (estimated) linear = std::move(estimated).value();
  }
  auto estimates = FromClosedForms(mechanism, histogram);
  if (!estimates && linear) estimates = FromLinearMoments(&*linear, mechanism.input_range());
  if (estimates && estimates->spread_identifiable && linear) {
    estimates->skewness = ShapeInterval(*linear, Skewness);
    estimates->kurtosis = ShapeInterval(*linear, Kurtosis);
  }
  return estimates;
}


}  // namespace deniable
