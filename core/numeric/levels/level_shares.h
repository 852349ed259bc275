// The share of answers in each privacy level, from the reported levels: the
// level's GRR inverted (a k x k linear system, Eigen), with the delta-method
// covariance of the multinomial counts. Unconstrained estimates are unbiased;
// shown clipped to [0, 1] with their intervals clipped alike.
#pragma once

#include <cstdint>
#include <vector>

#include "core/common/result.h"
#include "core/numeric/levels/lhp_channel.h"

namespace deniable {

struct LevelShare {
  double value;      // unbiased, may leave [0, 1]
  double std_error;
};

// reported[d]: reports whose level is d. Needs at least one report.
Result<std::vector<LevelShare>> EstimateLevelShares(const LhpChannel& channel, const std::vector<std::int64_t>& reported);

}  // namespace deniable
