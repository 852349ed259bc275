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
// The limit: move a share delta of the fitted distribution to the cells
// above x, spread evenly (u); the expected output cell probabilities change
// by delta * T (u - f) (transition_matrix.h). With N reported values the
// chi-square of that change against multinomial noise is
//   N * delta^2 * sum_j (T (u - f))_j^2 / (T f)_j,
// and the reports detect it at the 95% level (one degree of freedom) from
// delta = 1.96 / sqrt(N * S), S the sum. The same below x. Cost:
// O(points * output cells) after O(cells * output cells) prefix sums.
//
// The band: where the fit puts less than delta_above above x, the answers'
// CDF at x may be as low as (1 - delta_above) F(x) (that much moved above);
// where it puts less than delta_below below x, as high as
// F(x) + delta_below (1 - F(x)). Elsewhere the mass is detectable and the
// bootstrap band stands.
#pragma once

#include <vector>

#include "core/distribution/bootstrap.h"
#include "core/distribution/transition_matrix.h"

namespace deniable {

struct DetectionLimits {
  std::vector<double> above;  // per display point: undetectable share moved above it
  std::vector<double> below;  // ... moved below it
};

// fitted: the fit's cell probabilities on the transition's input cells;
// reported_values: N, all reports' values together.
DetectionLimits UndetectableMass(const TransitionMatrix& transition, const std::vector<double>& fitted,
                                 double reported_values, const std::vector<double>& points);

// The CDF band widened where the fit's tail is thinner than the limit (above).
BootstrapBand WidenCdfBandForUndetectableMass(const std::vector<double>& cdf, const BootstrapBand& band,
                                              const DetectionLimits& limits);

}  // namespace deniable
