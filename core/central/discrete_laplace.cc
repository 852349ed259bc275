#include "core/central/discrete_laplace.h"

#include <cmath>

namespace deniable {
namespace {

// True with probability p/q (p <= q).
bool BernoulliRational(std::uint64_t p, std::uint64_t q, RandomSource& random) { return UniformBelow(random, q) < p; }

// exp(-gamma) for gamma in [0, 1] (CKS Algorithm 1, first case): K = 1, 2, ...
// while Bernoulli(gamma / K) succeeds; the result is whether the count is odd.
// Bernoulli(gamma / K) is Bernoulli(gamma) and Bernoulli(1/K) together, which
// keeps every denominator within 64 bits.
bool BernoulliExpMinusAtMostOne(Rational gamma, RandomSource& random) {
  std::uint64_t k = 1;
  while (BernoulliRational(gamma.numerator, gamma.denominator, random) && UniformBelow(random, k) == 0) ++k;
  return k % 2 == 1;
}

}  // namespace

Result<Rational> ExactRational(double value) {
  if (!std::isfinite(value) || value <= 0.0) return MakeError("must be a finite positive number");
  int exponent = 0;
  const double fraction = std::frexp(value, &exponent);  // value = fraction * 2^exponent, fraction in [0.5, 1)
  auto mantissa = static_cast<std::uint64_t>(std::ldexp(fraction, 53));
  int power = 53 - exponent;  // value = mantissa / 2^power
  while (power > 0 && mantissa % 2 == 0) {
    mantissa /= 2;
    --power;
  }
  if (power < 0) {
    if (power < -10) return MakeError("is too large to be read exactly");
    return Rational{mantissa << (-power), 1};
  }
  if (power > 62) return MakeError("is too small to be read exactly");
  return Rational{mantissa, std::uint64_t{1} << power};
}

Result<Rational> DyadicAtMost(double value) {
  if (!std::isfinite(value) || value <= 0.0) return MakeError("must be a finite positive number");
  if (auto exact = ExactRational(value); exact) return exact;
  if (value >= 1.0) return MakeError("is too large to be read exactly");
  // value < 1 needs more than 62 bits after the point: keep the first 62 (rounding down).
  const auto numerator = static_cast<std::uint64_t>(std::floor(std::ldexp(value, 62)));
  if (numerator == 0) return MakeError("is too small to be read exactly");
  Rational rational{numerator, std::uint64_t{1} << 62};
  while (rational.denominator > 1 && rational.numerator % 2 == 0) {
    rational.numerator /= 2;
    rational.denominator /= 2;
  }
  return rational;
}

bool BernoulliExpMinus(Rational gamma, RandomSource& random) {
  // gamma = whole + rest/denominator: exp(-1) once per whole unit, then the rest.
  const std::uint64_t whole = gamma.numerator / gamma.denominator;
  for (std::uint64_t i = 0; i < whole; ++i) {
    if (!BernoulliExpMinusAtMostOne({1, 1}, random)) return false;
  }
  return BernoulliExpMinusAtMostOne({gamma.numerator % gamma.denominator, gamma.denominator}, random);
}

Result<DiscreteLaplace> DiscreteLaplace::Create(double epsilon, std::int64_t sensitivity) {
  if (sensitivity < 1) return MakeError("sensitivity must be at least 1");
  auto rational = DyadicAtMost(epsilon / static_cast<double>(sensitivity));
  if (!rational) return MakeError("epsilon " + rational.error());
  return DiscreteLaplace(*rational, epsilon / static_cast<double>(sensitivity));
}

// CKS Algorithm 2 with scale t/s, t = denominator, s = numerator of epsilon/sensitivity.
std::int64_t DiscreteLaplace::Draw(RandomSource& random) const {
  const std::uint64_t s = scale_inverse_.numerator;
  const std::uint64_t t = scale_inverse_.denominator;
  for (;;) {
    const std::uint64_t u = UniformBelow(random, t);
    if (!BernoulliExpMinus({u, t}, random)) continue;
    std::uint64_t v = 0;
    while (BernoulliExpMinus({1, 1}, random)) ++v;
    // y = floor((u + t v) / s) without overflow: the quotients of u and t by s,
    // then the remainders added v times (v is small: geometric with mean 0.58).
    std::uint64_t y = u / s + (t / s) * v;
    std::uint64_t remainder = u % s;
    for (std::uint64_t i = 0; i < v; ++i) {
      remainder += t % s;
      if (remainder >= s) remainder -= s, ++y;
    }
    const bool negative = BernoulliRational(1, 2, random);
    if (negative && y == 0) continue;
    return negative ? -static_cast<std::int64_t>(y) : static_cast<std::int64_t>(y);
  }
}

double DiscreteLaplace::Probability(std::int64_t x) const {
  const double a = std::exp(-epsilon_per_unit_);
  return (1.0 - a) / (1.0 + a) * std::pow(a, std::fabs(static_cast<double>(x)));
}

double DiscreteLaplace::Variance() const {
  const double a = std::exp(-epsilon_per_unit_);
  return 2.0 * a / ((1.0 - a) * (1.0 - a));
}

}  // namespace deniable
