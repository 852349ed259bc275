#include "tests/cpp/support/stat_utils.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <map>
#include <string>

#include "core/common/beta_distribution.h"
#include "core/common/seeded_random.h"

namespace deniable::testing {

double SampleMean(const std::vector<double>& values) {
  double sum = 0.0;
  for (double value : values) sum += value;
  return sum / static_cast<double>(values.size());
}

double SampleVariance(const std::vector<double>& values) {
  const double mean = SampleMean(values);
  double sum = 0.0;
  for (double value : values) sum += (value - mean) * (value - mean);
  return sum / static_cast<double>(values.size() - 1);
}

namespace {

// Series for P(a, x) when x < a + 1, continued fraction for Q otherwise
// (Numerical Recipes §6.2).
double GammaSeries(double a, double x) {
  double sum = 1.0 / a, term = sum;
  for (int n = 1; n < 10000; ++n) {
    term *= x / (a + n);
    sum += term;
    if (std::fabs(term) < std::fabs(sum) * 1e-15) break;
  }
  return sum * std::exp(-x + a * std::log(x) - std::lgamma(a));
}

double GammaContinuedFraction(double a, double x) {
  const double tiny = 1e-300;
  double b = x + 1.0 - a, c = 1.0 / tiny, d = 1.0 / b, h = d;
  for (int i = 1; i < 10000; ++i) {
    const double an = -i * (i - a);
    b += 2.0;
    d = an * d + b;
    if (std::fabs(d) < tiny) d = tiny;
    c = b + an / c;
    if (std::fabs(c) < tiny) c = tiny;
    d = 1.0 / d;
    const double delta = d * c;
    h *= delta;
    if (std::fabs(delta - 1.0) < 1e-15) break;
  }
  return std::exp(-x + a * std::log(x) - std::lgamma(a)) * h;
}

// Solves f(p) = target for p in [0, 1], f increasing, by bisection.
double Bisect(const std::function<double(double)>& f, double target) {
  double low = 0.0, high = 1.0;
  for (int i = 0; i < 200; ++i) {
    const double mid = 0.5 * (low + high);
    (f(mid) < target ? low : high) = mid;
  }
  return 0.5 * (low + high);
}

}  // namespace

double RegularizedGammaP(double a, double x) {
  if (x <= 0.0) return 0.0;
  return x < a + 1.0 ? GammaSeries(a, x) : 1.0 - GammaContinuedFraction(a, x);
}

double ChiSquareSurvival(double statistic, double degrees_of_freedom) {
  return 1.0 - RegularizedGammaP(degrees_of_freedom / 2.0, statistic / 2.0);
}

double ChiSquarePValue(const std::vector<std::int64_t>& observed, const std::vector<double>& probabilities) {
  double total = 0.0;
  for (auto count : observed) total += static_cast<double>(count);
  double statistic = 0.0, pooled_observed = 0.0, pooled_expected = 0.0;
  int cells = 0;
  for (std::size_t i = 0; i < observed.size(); ++i) {
    const double expected = probabilities[i] * total;
    if (expected < 5.0) {
      pooled_observed += static_cast<double>(observed[i]);
      pooled_expected += expected;
      continue;
    }
    const double diff = static_cast<double>(observed[i]) - expected;
    statistic += diff * diff / expected;
    ++cells;
  }
  if (pooled_expected > 0.0) {
    const double diff = pooled_observed - pooled_expected;
    statistic += diff * diff / std::max(pooled_expected, 1e-300);
    ++cells;
  }
  return ChiSquareSurvival(statistic, cells - 1);
}

// The product's own (core/common/beta_distribution.h), which its exact intervals use.
double RegularizedBeta(double a, double b, double x) { return RegularizedIncompleteBeta(a, b, x); }

double BinomialLowerBound(std::int64_t successes, std::int64_t trials, double alpha) {
  if (successes == 0) return 0.0;
  // The p for which P(X >= successes | p) = alpha: I_p(successes, trials - successes + 1) = alpha.
  const double a = static_cast<double>(successes), b = static_cast<double>(trials - successes + 1);
  return Bisect([&](double p) { return RegularizedBeta(a, b, p); }, alpha);
}

double BinomialUpperBound(std::int64_t successes, std::int64_t trials, double alpha) {
  return 1.0 - BinomialLowerBound(trials - successes, trials, alpha);
}

AuditResult AuditEpsilon(const PerturbFunction& perturb, int x0, int x1, std::int64_t trials, double alpha,
                         std::uint64_t seed) {
  // Events, as predicates over a report's support.
  using Event = std::function<bool(const Support&)>;
  const std::vector<Event> events = {
      [=](const Support& s) { return s[x0] == 1; },
      [=](const Support& s) { return s[x1] == 1; },
      [=](const Support& s) { return s[x0] == 0; },
      [=](const Support& s) { return s[x1] == 0; },
      [=](const Support& s) { return s[x0] == 1 && s[x1] == 0; },
      [=](const Support& s) { return s[x0] == 0 && s[x1] == 1; },
  };
  std::vector<std::int64_t> hits0(events.size(), 0), hits1(events.size(), 0);
  SeededRandom random(seed);
  for (std::int64_t t = 0; t < trials; ++t) {
    const Support report0 = perturb(x0, random);
    const Support report1 = perturb(x1, random);
    for (std::size_t e = 0; e < events.size(); ++e) {
      hits0[e] += events[e](report0);
      hits1[e] += events[e](report1);
    }
  }
  return EpsilonFromEventCounts(hits0, hits1, trials, alpha);
}

AuditResult EpsilonFromEventCounts(const std::vector<std::int64_t>& hits0, const std::vector<std::int64_t>& hits1,
                                   std::int64_t trials, double alpha) {
  // Each of the 2 |events| ratios uses two bounds: Bonferroni over 4 |events| bounds.
  const double per_bound_alpha = alpha / (4.0 * static_cast<double>(hits0.size()));
  AuditResult result{0.0, 0.0};
  const auto consider = [&](std::int64_t numerator_hits, std::int64_t denominator_hits) {
    const double lower = BinomialLowerBound(numerator_hits, trials, per_bound_alpha);
    const double upper = BinomialUpperBound(denominator_hits, trials, per_bound_alpha);
    if (lower > 0.0) result.lower_bound = std::max(result.lower_bound, std::log(lower / upper));
    if (numerator_hits > 0) {
      const double ratio = denominator_hits == 0 ? std::numeric_limits<double>::infinity()
                                                 : static_cast<double>(numerator_hits) / denominator_hits;
      result.point = std::max(result.point, std::log(ratio));
    }
  };
  for (std::size_t e = 0; e < hits0.size(); ++e) {
    consider(hits0[e], hits1[e]);
    consider(hits1[e], hits0[e]);
  }
  return result;
}

double StochasticEpsilonLowerBound(const HistogramReleaser& release, const std::vector<std::int64_t>& a,
                                   const std::vector<std::int64_t>& b, int trials, std::uint64_t seed) {
  std::map<std::string, std::array<double, 2>> counts;
  SeededRandom random(seed);
  for (int side = 0; side < 2; ++side) {
    for (int i = 0; i < trials; ++i) {
      std::string key;
      for (double value : release(side == 0 ? a : b, random)) key += std::to_string(value) + ",";
      counts[key][static_cast<std::size_t>(side)] += 1.0;
    }
  }
  double bound = 0.0;
  for (const auto& [key, count] : counts) {
    for (int side = 0; side < 2; ++side) {
      const double x = count[static_cast<std::size_t>(side)], y = count[static_cast<std::size_t>(1 - side)];
      const double x_low = x - 5.0 * std::sqrt(x), y_high = y + 5.0 * std::sqrt(y) + 5.0;
      if (x_low > 0.0) bound = std::max(bound, std::log(x_low / y_high));
    }
  }
  return bound;
}

}  // namespace deniable::testing
