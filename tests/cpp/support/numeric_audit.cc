#include "tests/cpp/support/numeric_audit.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/common/seeded_random.h"

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
  return EpsilonFromEventCounts(hits0, hits1, trials, alpha);
}

}  // namespace deniable::testing
