// Central-DP publication of a histogram of exact counts held by the server
// (seed 001: SReB_GCA, with the digest's fixes; and DP_BASE), with exact
// discrete Laplace noise drawn once and kept: a release is a value to store
// and serve unchanged, never to redraw.
//
// SReB_GCA (digest §3.5): epsilon = epsilon_1 + epsilon_2 with
// epsilon_1 = rho * epsilon. Phase 1 (epsilon_1-DP): every count plus discrete
// Laplace(1/epsilon_1). The bins are sorted by those noisy counts (ties by bin
// index) and grouped by GGS (greedy_grouping.h) from the noisy counts ONLY,
// with lambda = 1/epsilon_2 and the relative-error floor delta. Phase 2
// (epsilon_2-DP): ONE discrete Laplace(1/epsilon_2) draw per group, added to
// the group's true integer sum; every member publishes (sum + noise)/m. The
// partition is public (a function of the phase-1 output), one record changes
// one group sum by 1, so the release is epsilon-DP (add/remove one record
// contributing to one bin; `sensitivity` scales both phases otherwise).
// Phase 1's noisy counts are not published.
//
// DP_BASE: every count plus one discrete Laplace(1/epsilon) draw.
//
// No post-processing here (values may be negative and fractional):
// post-processing is separate and optional.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/common/random_source.h"
#include "core/common/result.h"

namespace deniable {

struct ReleaseGroup {
  std::vector<std::size_t> bins;  // original bin indices
  std::int64_t noise = 0;         // the group's one draw
};

struct HistogramRelease {
  std::vector<double> values;        // published, original bin order
  std::vector<ReleaseGroup> groups;  // DP_BASE: one group per bin
  // SReB_GCA's phase-1 noisy counts (kept for audit and tests; never published).
  std::vector<std::int64_t> first_phase;
};

struct SrebGcaParameters {
  double epsilon = 1.0;
  double rho = 0.1;    // epsilon_1 / epsilon, in (0, 1); the digest's probe found ~0.1 best at epsilon >= 0.1
  double delta = 1.0;  // relative-error floor in GGS's denominators
  std::int64_t sensitivity = 1;
};

class DiscreteLaplace;

// Phase 2 for any grouping (SReB_GCA, AHP, DP_BASE): each group's true sum plus
// ONE draw of `noise`, divided by its size, published to every member; the
// draws are kept in the groups.
void PublishGroupMeans(const std::vector<std::int64_t>& counts, const DiscreteLaplace& noise, RandomSource& random,
                       HistogramRelease& release);

// The grouping of bins from phase-1 noisy counts alone: bins sorted by noisy
// count (ties by index), then GGS. Returns groups of original bin indices.
std::vector<std::vector<std::size_t>> PartitionFromNoisy(const std::vector<std::int64_t>& noisy, double lambda,
                                                         double delta);

Result<HistogramRelease> ReleaseSrebGca(const std::vector<std::int64_t>& counts, const SrebGcaParameters& parameters,
                                        RandomSource& random);

Result<HistogramRelease> ReleaseDpBase(const std::vector<std::int64_t>& counts, double epsilon,
                                       std::int64_t sensitivity, RandomSource& random);

}  // namespace deniable
