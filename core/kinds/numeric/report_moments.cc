#include "core/kinds/numeric/report_moments.h"

#include <algorithm>
#include <cmath>

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

}  // namespace

std::optional<ReportMomentEstimates> EstimateFromReportMoments(const NumericMechanism& mechanism,
                                                               const NumericHistogram& histogram) {
  const auto moments = mechanism.report_moments();
  if (!moments || histogram.values() < 2 || histogram.values() != histogram.reports()) return std::nullopt;
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
  auto sd = [&](double v) { return w * std::sqrt(std::max(0.0, v)); };
  estimates.standard_deviation =
      MomentInterval{sd(variance), sd(variance - kZ95 * variance_se), sd(variance + kZ95 * variance_se)};
  return estimates;
}

}  // namespace deniable
