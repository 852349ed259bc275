// The share of answers in each privacy level, from the reported levels: the
// level's GRR inverted (a k x k linear system, Eigen): shares = L^-1 q_hat,
// L(d, t) = P(reported d | true t), q_hat the reported levels' shares.
// Unconstrained estimates are unbiased; shown clipped to [0, 1] with their
// intervals clipped alike. Their covariance, L^-1 Cov(q_hat) L^-T, for:
// - the population (the default): respondents are draws from it, so the
//   reported levels are multinomial(n, q): Cov(q_hat) = (diag(q) - q q^T)/n;
// - these respondents (their true levels fixed, shares pi): the reports are
//   independent but not identical, Cov(q_hat) = sum_t pi_t (diag(L_t) -
//   L_t L_t^T)/n, L_t the column of level t; the difference is
//   L (diag(pi) - pi pi^T) L^T / n, so a share's variance is the
//   population's less pi_t (1 - pi_t)/n, the sampling's. pi is plugged in
//   clipped to [0, 1] and renormalised, so the matrix stays a covariance.
#pragma once

#include <cstdint>
#include <vector>

#include "core/common/result.h"
#include "core/numeric/levels/lhp_channel.h"
#include "core/survey/interval_target.h"

namespace deniable {

struct LevelShare {
  double value;      // unbiased, may leave [0, 1]
  double std_error;
};

// reported[d]: reports whose level is d. Needs at least one report.
Result<std::vector<LevelShare>> EstimateLevelShares(const LhpChannel& channel, const std::vector<std::int64_t>& reported,
                                                    IntervalTarget target = IntervalTarget::kPopulation);

}  // namespace deniable
