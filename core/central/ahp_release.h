// AHP (Zhang, Chen, Xu, Meng and Xie, "Towards Accurate Histogram Publication
// under Differential Privacy", SDM 2014), the stronger baseline DPBench users
// pick beside DP_BASE, as DPBench's implementation runs it (the digest's
// §3.9: ratio 0.85, eta 0.35): epsilon_1 = ratio epsilon on every count,
// noisy counts at or below eta ln(n)/epsilon_1 set to 0, bins sorted by them,
// a greedy contiguous clustering under squared error with the noise term
// t/m, t = 2/epsilon_2^2, where a bin joins unless err(C + bin) >= err(C) +
// err*(bin), err*(bin) the best error of a cluster starting at the bin (the
// scan stopped early as the paper's p. 6 says); then ONE noise draw per
// cluster on its true sum, shared by its members. Noise is exact discrete
// Laplace, as for SReB_GCA (histogram_release.h).
#pragma once

#include <cstdint>
#include <vector>

#include "core/central/histogram_release.h"

namespace deniable {

struct AhpParameters {
  double epsilon = 1.0;
  double ratio = 0.85;  // epsilon_1 / epsilon
  double eta = 0.35;    // the sparsity threshold's factor
  std::int64_t sensitivity = 1;
};

// The clusters (end positions, 0-based inclusive) of sorted values under AHP's rule, t = 2/epsilon_2^2.
std::vector<std::size_t> AhpClusterEnds(const std::vector<double>& sorted, double t);

Result<HistogramRelease> ReleaseAhp(const std::vector<std::int64_t>& counts, const AhpParameters& parameters,
                                    RandomSource& random);

}  // namespace deniable
