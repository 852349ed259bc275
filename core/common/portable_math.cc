#include "core/common/portable_math.h"

#include <cmath>

namespace deniable {
namespace {

// ln 2 split so that k * kLn2High is exact for |k| < 2^11 (kLn2High has 32
// significant bits), kLn2Low the rest (Cody and Waite's argument reduction).
constexpr double kLn2High = 6.93147180369123816490e-01;  // 0x3FE62E42FEE00000
constexpr double kLn2Low = 1.90821492927058770002e-10;   // 0x3DEA39EF35793C76
constexpr double kInverseLn2 = 1.44269504088896338700e+00;

// e^r - 1 for |r| <= ln(2)/2 by its Taylor series in Horner form: 18 terms make
// the truncation error below 1e-22 relative.
double Expm1Reduced(double r) {
  double sum = 1.0;
  for (int n = 18; n >= 2; --n) sum = 1.0 + sum * r / n;
  return r * sum;
}

// 2 atanh(s) = ln((1 + s)/(1 - s)) for |s| <= 0.1716 by its odd series:
// s^(2n) <= 0.0295^n, so 12 terms leave under 1e-18 relative.
double TwiceAtanhReduced(double s) {
  const double s2 = s * s;
  double sum = 1.0 / 25.0;
  for (int n = 11; n >= 0; --n) sum = 1.0 / (2 * n + 1) + s2 * sum;
  return 2.0 * s * sum;
}

}  // namespace

double PortableExpm1(double x) {
  // x = k ln 2 + r, |r| <= ln(2)/2 (plus rounding), then
  // e^x - 1 = 2^k (e^r - 1) + (2^k - 1), with 2^k - 1 exact.
  const double k = std::floor(x * kInverseLn2 + 0.5);
  if (k == 0.0) return Expm1Reduced(x);
  const double r = (x - k * kLn2High) - k * kLn2Low;
  const int exponent = static_cast<int>(k);
  return std::ldexp(Expm1Reduced(r), exponent) + (std::ldexp(1.0, exponent) - 1.0);
}

double PortableExp(double x) {
  const double k = std::floor(x * kInverseLn2 + 0.5);
  const double r = (x - k * kLn2High) - k * kLn2Low;
  return std::ldexp(1.0 + Expm1Reduced(r), static_cast<int>(k));
}

double PortableLog(double x) {
  // x = m 2^e with m in [sqrt(1/2), sqrt(2)); ln m = 2 atanh((m - 1)/(m + 1)).
  int exponent = 0;
  double m = std::frexp(x, &exponent);  // m in [1/2, 1), exact
  if (m < 0.70710678118654752440) {
    m *= 2.0;
    --exponent;
  }
  const double log_m = TwiceAtanhReduced((m - 1.0) / (m + 1.0));  // m - 1 is exact (Sterbenz)
  return exponent * kLn2High + (exponent * kLn2Low + log_m);
}

}  // namespace deniable
