// Empirical-epsilon audit of a numeric mechanism, treated as a black box
// (the numeric counterpart of AuditEpsilon in stat_utils.h).
//
// An event is an interval I = [low, high] of the output; a report (k values)
// is in the event when EVERY value lies in I. For k = 1 that is "the value
// lies in I". For two answers x0, x1 the audit samples `trials` reports of
// each, counts every event, and bounds ln(P(E | x0) / P(E | x1)) in both
// directions with exact (Clopper-Pearson) bounds, Bonferroni-corrected over
// the 4 |events| bounds it uses.
//   lower_bound: a (1 - alpha) lower confidence bound on the mechanism's true
//                epsilon: a correct mechanism exceeds its claimed epsilon here
//                with probability at most alpha.
//   point:       the largest plug-in log ratio (infinite when an event never
//                occurs under one answer but does under the other).
// Power depends on choosing events where the true ratio is largest; the
// caller, who knows the mechanism, supplies them.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "core/numeric/numeric_mechanism.h"
#include "core/common/random_source.h"
#include "tests/cpp/support/stat_utils.h"

namespace deniable::testing {

struct OutputInterval {
  double low;
  double high;
};

using NumericPerturbFunction = std::function<std::vector<double>(double answer, RandomSource& random)>;

// perturb(answer) for a NumericMechanism (the answer must be valid).
NumericPerturbFunction PerturbWith(const NumericMechanism& mechanism);

AuditResult AuditNumericEpsilon(const NumericPerturbFunction& perturb, double x0, double x1,
                                const std::vector<OutputInterval>& events, std::int64_t trials, double alpha,
                                std::uint64_t seed);

}  // namespace deniable::testing
