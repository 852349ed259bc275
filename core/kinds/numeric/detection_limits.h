// How much of the answers' mass the reports cannot see, on either side of
// each display point, and the CDF band widened by it where the fit claims
// less than that.
//
// Why: an EM-type fit gives cells without support exactly zero mass, and so
// does every bootstrap replicate drawn from it, so the CDF band in a thin
// tail collapses to [1, 1]. Answers piled near 0 in [0, 1000] with 0.5% of
// them spread beyond 200 (RVNS, window 100): the answers' CDF was 0.994-0.998
// there, the band [1, 1], and the band held the answers' CDF at 41% of the
// display points. The reports cannot rule such a tail out: it is a bias of
// the fit, not sampling noise, and the bootstrap does not see it.
//
// The limit: move a share delta of the fitted distribution f evenly into
// cells above x (u: all of them, or the half, quarter or eighth nearest x),
// and delta * c to the range's low end (e), with c >= 0 chosen so that the
// move is least detectable (it keeps the mean where the channel sees little
// else); the expected output probabilities change by delta * T (u - f + c (e - f))
// (transition_matrix.h). With N reported values the reports detect it at
// the 95% level (chi-square, one degree of freedom, against the moved
// distribution's own multinomial variance) from the delta found by
// bisection; the least detectable of the four u is the limit. The same
// below x, compensated at the high end. Cost: O(points * output cells * 160)
// after O(cells * output cells) prefix sums.
//
// The band: where the fit puts less than delta above x, the answers' CDF at
// x may be as low as F(x) - delta ((1 + c) F(x) - c); where it puts less
// than delta below x, as high as F(x) + delta ((1 + c) (1 - F(x)) - c).
// Elsewhere the mass is detectable and the bootstrap band stands.
#pragma once

#include <vector>

#include "core/distribution/bootstrap.h"
#include "core/distribution/transition_matrix.h"

namespace deniable {

// A share of the answers moved across a point that the reports cannot
// detect, with share * compensation added at the range's far end (the
// least detectable such move: below).
struct UndetectableMove {
  double share;
  double compensation;
};

struct DetectionLimits {
  std::vector<UndetectableMove> above;  // per display point: moved above it (compensated at the low end)
  std::vector<UndetectableMove> below;  // ... moved below it (compensated at the high end)
};

// fitted: the fit's cell probabilities on the transition's input cells;
// reported_values: N, all reports' values together.
DetectionLimits UndetectableMass(const TransitionMatrix& transition, const std::vector<double>& fitted,
                                 double reported_values, const std::vector<double>& points);

// The CDF band widened where the fit's tail is thinner than the limit (above).
BootstrapBand WidenCdfBandForUndetectableMass(const std::vector<double>& cdf, const BootstrapBand& band,
                                              const DetectionLimits& limits);

}  // namespace deniable
