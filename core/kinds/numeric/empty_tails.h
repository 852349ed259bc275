// Whether the reports allow an empty tail (no answer above x, or below x),
// and the CDF band widened by what the fit invents in an emptied tail.
//
// Why: a fit whose cells cannot go negative keeps mass in a tail the answers
// do not have (noise in the reports can add mass there but never take it
// away), and so does every bootstrap replicate, so the band does not see it.
// A Pareto-like pile in [0, 1000] with no answer above 650, Square Wave
// eps = 4, n = 3000: the fit put 2% of the mass above 650, the band's top was
// 0.997 there against the answers' 1, and the band held the answers' CDF at
// 85% of its points. A linearised test (detection_limits.h) calls that 2%
// detectable: it is, against the expected reports, but the fit's tail is
// itself made of noise, which the linear test does not model.
//
// The allowance: split the grid where the fit has 20% above; draw 19 sets of
// reports from the fit with that tail emptied (renormalised) and fit them:
// the most mass any of them puts above the split is what the fit invents in
// an empty tail (19 draws: its 95th percentile, a one-sided rank test at
// 1/20). The answers' mass above any x beyond the split is then at least the
// fit's less that, so their CDF there may be as high as F(x) + invented (at
// most 1): where the fit's own tail is no more than it invents, the band
// reaches 1, the honest "the reports allow no answer above x". The same
// below. Splits at 0.5%, 1%, 2% and 5% as well moved no cell of the
// coverage bench by more than 2 points, and the split nearest each point alone covered less (86%
// against 96% of points for a point mass under RVNS): one split at 20%.
// Cost: 2 x 19 fits; a results document at the defaults (50 replicates)
// took 1.5-1.8x as long (build/numeric_results_bench: Square Wave n = 10^4,
// 528 -> 934 ms; RVNS 668 -> 966 ms).
#pragma once

#include <optional>
#include <vector>

#include "core/distribution/bootstrap.h"
#include "core/distribution/transition_matrix.h"

namespace deniable {

inline constexpr int kEmptyTailReplicates = 19;

struct InventedTail {
  double split = 0.0;     // the tail is above (below) this value
  double invented = 0.0;  // the most mass a fit put there when the answers had none
};
inline constexpr double kEmptiedTailMass = 0.2;

struct EmptyTails {
  std::optional<InventedTail> above;  // none when no cell split leaves at most kEmptiedTailMass above
  std::optional<InventedTail> below;
};

// fitted: the fit on the transition's input cells; reestimate: the fit's own estimator.
Result<EmptyTails> TestEmptyTails(const GridDistribution& fitted, const TransitionMatrix& transition,
                                  std::int64_t reports, int values_per_report, const Reestimator& reestimate,
                                  const BootstrapOptions& options);

// The CDF band raised by what the fit invents above at each point in the upper
// tail, lowered by what it invents below at each point in the lower tail.
BootstrapBand WidenCdfBandForEmptyTails(const std::vector<double>& points, const BootstrapBand& band,
                                        const std::vector<double>& cdf, const EmptyTails& tails);

}  // namespace deniable
