#include "numeric_audit.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/seeded_random.h"

namespace deniable::testing {
namespace {

bool AllValuesIn(const std::vector<double>& report, const OutputInterval& interval) {
  return std::all_of(report.begin(), report.end(),
                     [&](double y) { return y >= interval.low && y <= interval.high; });
}

}  // namespace

NumericPerturbFunction PerturbWith(const NumericMechanism& mechanism) {
  return [&mechanism](double answer, RandomSource& random) { return mechanism.Perturb(answer, random).value(); };
}

AuditResult AuditNumericEpsilon(const NumericPerturbFunction& perturb, double x0, double x1,
                                const std::vector<OutputInterval>& events, std::int64_t trials, double alpha,
                                std::uint64_t seed) {
  std::vector<std::int64_t> hits0(events.size(), 0), hits1(events.size(), 0);
  SeededRandom random(seed);
  for (std::int64_t t = 0; t < trials; ++t) {
    const auto report0 = perturb(x0, random);
    const auto report1 = perturb(x1, random);
    for (std::size_t e = 0; e < events.size(); ++e) {
      hits0[e] += AllValuesIn(report0, events[e]);
      hits1[e] += AllValuesIn(report1, events[e]);
    }
  }
  // Each of the 2 |events| ratios uses a lower and an upper bound: Bonferroni over 4 |events| bounds.
  const double per_bound_alpha = alpha / (4.0 * static_cast<double>(events.size()));
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
  for (std::size_t e = 0; e < events.size(); ++e) {
    consider(hits0[e], hits1[e]);
    consider(hits1[e], hits0[e]);
  }
  return result;
}

}  // namespace deniable::testing
