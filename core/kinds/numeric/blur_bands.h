// The CDF's and histogram's bands widened for the estimator's blur, as the
// quantiles are (numeric_statistics.h): the estimator spreads answers by
// about `blur` on each side, so the answers' own CDF at x may be the
// estimate's anywhere in [x - blur, x + blur], and a bin's share anything the
// CDF band allows between its edges moved by the blur.
//
// Why: answers on integers in [0, 10] with bins of width 0.5 (every other bin
// empty) had bootstrap bands covering 15-57% of bins; a pile at the low end
// left the CDF band covering 31% of points (build/coverage).
#pragma once

#include <vector>

#include "core/distribution/bootstrap.h"

namespace deniable {

// points: the CDF's display points (increasing); band: its pointwise band;
// blurs: the blur at each point (BlurNearEnds).
BootstrapBand WidenCdfBandForBlur(const std::vector<double>& points, const BootstrapBand& band,
                                  const std::vector<double>& blurs);

// How far answers at the range's ends come back from them (numeric_results.cc).
struct EndReach {
  double low = 0.0;   // from the low end upwards
  double high = 0.0;  // from the high end downwards
};
// The blur per display point: `blur`, or within an end's reach of that end the reach if larger.
std::vector<double> BlurNearEnds(const std::vector<double>& points, double blur, const EndReach& reach,
                                 NumericRange range);

// edges: the histogram's bin edges; band: its bins' band, widened in place to
// hold [F_low(b - blur) - F_high(a + blur), F_high(b + blur) - F_low(a - blur)]
// for each bin [a, b], with F_low/F_high the (already widened) CDF band
// interpolated between display points, clipped to [0, 1].
void WidenHistogramBandForBlur(const std::vector<double>& edges, const std::vector<double>& cdf_points,
                               const BootstrapBand& cdf_band, double blur, BootstrapBand& band);

// The density's band as a band for the answers' density averaged over
// [x - half_window, x + half_window] (clipped to the range) at each display
// point x: the mass the CDF band allows in that window, divided by its width,
// widened to hold the curve's own value there. A pointwise band for the
// density itself would be a promise the estimator cannot keep: it resolves
// nothing narrower than its blur (answers within 20 units of 0 in a range of
// 1540, RVNS window 154: true density 0.034, estimate 0.005 with a bootstrap
// band reaching 0.009). cdf_band: the CDF's band (already widened for the blur).
BootstrapBand WindowedDensityBand(const std::vector<double>& cdf_points, const BootstrapBand& cdf_band,
                                  NumericRange range, double half_window, const std::vector<double>& density);

// The values a q-quantile can take given a CDF band: from where the band's
// upper edge first reaches q to where its lower edge last stays at or below q
// (each widened to the neighbouring display point, or to the range's ends).
// A quantile in a gap between modes or between discrete values sits where the
// CDF is flat, so a small error in the CDF moves it far: this interval sees it.
BootstrapInterval QuantileRangeFromCdfBand(const std::vector<double>& points, const BootstrapBand& cdf_band, double q,
                                           NumericRange range);

}  // namespace deniable
