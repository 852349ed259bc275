// Exact discrete Laplace (two-sided geometric) noise for central releases:
// P(X = x) proportional to exp(-epsilon |x| / sensitivity) on the integers,
// sampled with integer arithmetic only (Canonne, Kamath and Steinke, "The
// Discrete Gaussian for Differential Privacy", NeurIPS 2020, Algorithms 1-2),
// so no floating-point artefact can leak the true count (Mironov 2012). A
// double epsilon is read as the exact dyadic rational it is.
#pragma once

#include <cstdint>

#include "core/common/random_source.h"
#include "core/common/result.h"

namespace deniable {

// A rational number p / q with q >= 1 (both below 2^63).
struct Rational {
  std::uint64_t numerator;
  std::uint64_t denominator;
};

// The exact value of a finite positive double as a fraction with a power-of-two
// denominator (reduced); an error when it does not fit in 63 bits.
Result<Rational> ExactRational(double value);

// The largest fraction with a power-of-two denominator of at most 2^62 that is
// not above `value` (`value` itself when ExactRational reads it). Noise drawn
// for it is at least as wide as for `value`, so a privacy loss read this way
// is never understated; a value like 0.01 * 0.001 / 2, whose binary expansion
// needs a denominator of 2^70, no longer fails. An error below 2^-62.
Result<Rational> DyadicAtMost(double value);

// True with probability exp(-gamma), gamma = p/q >= 0, exactly.
bool BernoulliExpMinus(Rational gamma, RandomSource& random);

// One draw of discrete Laplace noise with scale t/s = sensitivity/epsilon:
// P(x) = (1 - e^(-1/scale)) / (1 + e^(-1/scale)) * e^(-|x|/scale).
class DiscreteLaplace {
 public:
  // epsilon in [0.01, 30]-style ranges checked by the caller; sensitivity >= 1.
  static Result<DiscreteLaplace> Create(double epsilon, std::int64_t sensitivity = 1);
  std::int64_t Draw(RandomSource& random) const;
  // The exact probability of x (for tests), and the variance 2a/(1-a)^2, a = e^(-epsilon/sensitivity).
  double Probability(std::int64_t x) const;
  double Variance() const;

 private:
  DiscreteLaplace(Rational scale_inverse, double epsilon_per_unit)
      : scale_inverse_(scale_inverse), epsilon_per_unit_(epsilon_per_unit) {}
  Rational scale_inverse_;   // s / t = epsilon / sensitivity
  double epsilon_per_unit_;  // the same, as a double (for Probability and Variance)
};

}  // namespace deniable
