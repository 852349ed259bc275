// Each attribute's distribution among the respondents who answered it.
//
// `paper` mode (seed 002, Formula 16 with the digest's corrections): every
// respondent who answered the attribute pooled, debiased with the common
// q = q(epsilon_per_attribute): c_b = (c^_b - s q) / (1/2 - q), variance
// (c/4 + (s - c) q (1 - q)) / (1/2 - q)^2. Unbiased only when every split
// is equal: q(epsilon) is convex, so unequal splits raise the respondents'
// average q above q(e) and every option's estimate is biased upwards
// (digest section 3.6; measured in tests/cpp/core/kinds/block/block_marginals_test.cpp).
//
// `calibrated` mode (the default; digest section 3.6): each calibration
// unit (calibration_units.h) estimates its own average q from its row sums
// (each respondent has exactly one true option per attribute, so the sum of
// the bit counts is s/2 + s (l - 1) q), q = (R/s - 1/2) / (l - 1), and
// debiases with it; the units' counts add. The estimates then sum to s in
// each unit. Variance by the delta method in (c^_b, R):
//   v_b = c_b/4 + (s - c_b) q (1 - q),  V_R = s/4 + s (l - 1) q (1 - q),
//   k = (c_b - s) / (s (l - 1)),
//   Var(c_b) = (v_b (1 + 2k) + k^2 V_R) / (1/2 - q)^2
// (c_b clipped to [0, s] inside). Per-respondent q's spread makes the true
// variance a little smaller than the plug-in q (1 - q): the interval errs
// wide. A unit too small to calibrate itself borrows its q and is held to
// [0, s] (calibration_units.h): its variance is the randomisation's given
// that q, at most s^2.
//
// Interval targets (core/survey/interval_target.h). The variances above hold
// the respondents' answers fixed: intervals for the share among these
// respondents. For the population they were sampled from, the count is
// also a sum over n random respondents, and by the law of total variance
//   Var(count) = E[Var(count | answers)] + Var(E[count | answers])
//              = (the above) + n pi (1 - pi),
// since given the answers the estimate is unbiased for their count c, which
// is Binomial(n, pi) (Warner's randomised-response variance: for binary RR
// this sum is lambda (1 - lambda) / (p - q)^2 per respondent). pi is
// estimated by the frequency held to [0, 1]. The same holds for every joint
// cell (joint_estimator.h).
//
// Intervals: 95%, normal. Consistent frequencies: Norm-Sub.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/frequency/frequency_estimator.h"
#include "core/kinds/block/block_aggregate.h"
#include "core/survey/interval_target.h"

namespace deniable {

enum class BlockMode { kCalibrated, kPaper };

struct MarginalEstimate {
  std::int64_t n = 0;              // respondents who answered the attribute
  std::vector<OptionEstimate> options;
  double average_q = 0.0;          // calibrated: the respondents' average q (weighted by unit); paper: q(e)
};

MarginalEstimate EstimateMarginal(const BlockAggregate& aggregate, int attribute, BlockMode mode,
                                  double epsilon_per_attribute,
                                  IntervalTarget target = IntervalTarget::kPopulation);

// The delta-method variance above of a calibrated unit's count estimate `count`
// (clipped to [0, s] inside) for an attribute of `options` options, s
// respondents and q their unit's q: what the results report and the advisor
// (block_advice.h) predicts.
double CalibratedCountVariance(double s, double count, int options, double q);

// The sampling variance n pi (1 - pi) a population interval adds to a count's (above), pi = count / n in [0, 1].
double SamplingVariance(double count, double n);

}  // namespace deniable
