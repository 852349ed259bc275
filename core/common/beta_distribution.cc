#include "core/common/beta_distribution.h"

#include <cmath>
#include <initializer_list>

namespace deniable {
namespace {

// The continued fraction of I_x(a, b), converging for x < (a + 1) / (a + b + 2).
double BetaContinuedFraction(double a, double b, double x) {
  constexpr double kTiny = 1e-300, kPrecision = 1e-14;
  double c = 1.0, d = 1.0 - (a + b) * x / (a + 1.0);
  if (std::fabs(d) < kTiny) d = kTiny;
  d = 1.0 / d;
  double fraction = d;
  for (int m = 1; m <= 10000; ++m) {
    const double two_m = 2.0 * m;
    for (const double term : {m * (b - m) * x / ((a + two_m - 1.0) * (a + two_m)),
                              -(a + m) * (a + b + m) * x / ((a + two_m) * (a + two_m + 1.0))}) {
      d = 1.0 + term * d;
      if (std::fabs(d) < kTiny) d = kTiny;
      c = 1.0 + term / c;
      if (std::fabs(c) < kTiny) c = kTiny;
      d = 1.0 / d;
      fraction *= d * c;
    }
    if (std::fabs(d * c - 1.0) < kPrecision) break;
  }
  return fraction;
}

}  // namespace

double RegularizedIncompleteBeta(double a, double b, double x) {
  if (x <= 0.0) return 0.0;
  if (x >= 1.0) return 1.0;
  const double log_front = std::lgamma(a + b) - std::lgamma(a) - std::lgamma(b) + a * std::log(x) + b * std::log1p(-x);
  if (x < (a + 1.0) / (a + b + 2.0)) return std::exp(log_front) * BetaContinuedFraction(a, b, x) / a;
  return 1.0 - std::exp(log_front) * BetaContinuedFraction(b, a, 1.0 - x) / b;
}

double BetaQuantile(double probability, double a, double b) {
  double low = 0.0, high = 1.0;
  while (high - low > 1e-12) {
    const double middle = (low + high) / 2;
    (RegularizedIncompleteBeta(a, b, middle) < probability ? low : high) = middle;
  }
  return (low + high) / 2;
}

}  // namespace deniable
