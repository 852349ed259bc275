// The exact discrete Laplace sampler (discrete_laplace.h, seed 001): dyadic
// epsilon, exact Bernoulli(exp(-gamma)), and the two-sided geometric law.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <map>
#include <vector>

#include "core/central/discrete_laplace.h"
#include "core/common/seeded_random.h"
#include "tests/cpp/support/stat_utils.h"

using namespace deniable;

TEST_CASE("central: a double epsilon is read as its exact dyadic rational") {
  CHECK(ExactRational(0.5)->numerator == 1);
  CHECK(ExactRational(0.5)->denominator == 2);
  CHECK(ExactRational(3.0)->numerator == 3);
  CHECK(ExactRational(3.0)->denominator == 1);
  const Rational tenth = *ExactRational(0.1);
  CHECK(tenth.numerator == 3602879701896397ULL);
  CHECK(tenth.denominator == (1ULL << 55));
  CHECK(!ExactRational(-1.0).ok());
  // A split part of a small epsilon needs more than 62 bits: read rounded down (more noise, never less privacy).
  const double small = 0.01 * 0.001 / 2;
  CHECK(!ExactRational(small).ok());
  const Rational below = *DyadicAtMost(small);
  CHECK(below.denominator <= (1ULL << 62));
  CHECK(static_cast<long double>(below.numerator) / below.denominator <= small);
  CHECK(static_cast<double>(static_cast<long double>(below.numerator) / below.denominator) == doctest::Approx(small).epsilon(1e-12));
  CHECK(DyadicAtMost(0.1)->numerator == tenth.numerator);
  CHECK(!DyadicAtMost(1e-30).ok());
}

TEST_CASE("central: Bernoulli(exp(-gamma)) is exact in rate for gamma below and above 1") {
  SeededRandom random(3);
  for (const Rational gamma : {Rational{3, 10}, Rational{27, 10}, Rational{0, 1}}) {
    const int trials = 200000;
    int successes = 0;
    for (int i = 0; i < trials; ++i) successes += BernoulliExpMinus(gamma, random);
    const double p = std::exp(-static_cast<double>(gamma.numerator) / static_cast<double>(gamma.denominator));
    CHECK(std::abs(successes / double(trials) - p) <= 4.0 * std::sqrt(p * (1 - p) / trials) + 1e-12);
  }
}

TEST_CASE("central: discrete Laplace draws follow the exact two-sided geometric law (chi-square), mean 0, its variance") {
  for (double epsilon : {0.3, 1.0, 2.5}) {
    const auto noise = DiscreteLaplace::Create(epsilon);
    REQUIRE(noise.ok());
    SeededRandom random(17);
    const int trials = 200000;
    std::map<std::int64_t, int> counts;
    double sum = 0.0, squares = 0.0;
    for (int i = 0; i < trials; ++i) {
      const std::int64_t x = noise->Draw(random);
      ++counts[x];
      sum += static_cast<double>(x);
      squares += static_cast<double>(x) * static_cast<double>(x);
    }
    // Cells |x| <= K with expected count >= 20 each, plus the two tails together.
    double chi_square = 0.0, tail_expected = 1.0, tail_observed = trials;
    int cells = 0;
    for (std::int64_t x = -200; x <= 200; ++x) {
      const double expected = trials * noise->Probability(x);
      if (expected < 20) continue;
      const double observed = counts.count(x) ? counts[x] : 0;
      chi_square += (observed - expected) * (observed - expected) / expected;
      tail_expected -= noise->Probability(x);
      tail_observed -= observed;
      ++cells;
    }
    tail_expected *= trials;
    if (tail_expected >= 5) chi_square += (tail_observed - tail_expected) * (tail_observed - tail_expected) / tail_expected, ++cells;
    // p < 1e-6 critical value for <= 60 degrees of freedom is below 140; for few cells the bound is loose but safe.
    MESSAGE("epsilon " << epsilon << ": chi-square " << chi_square << " over " << cells << " cells");
    CHECK(chi_square < 40.0 + 2.0 * cells);
    const double variance = noise->Variance();
    CHECK(std::abs(sum / trials) < 5.0 * std::sqrt(variance / trials));
    CHECK(std::abs(squares / trials / variance - 1.0) < 5.0 * std::sqrt(2.0 / trials) * 3.0);
  }
}
