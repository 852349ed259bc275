// The CDF's and histogram's bands widened for the estimator's blur (blur_bands.h): exact values on small inputs.
#include <doctest/doctest.h>

#include "core/kinds/numeric/blur_bands.h"

using namespace deniable;

TEST_CASE("blur bands: the CDF band at x spans the band over [x - blur, x + blur]") {
  const std::vector<double> points = {0.5, 1.5, 2.5, 3.5};
  const BootstrapBand band{{0.0, 0.2, 0.6, 0.9}, {0.1, 0.4, 0.8, 1.0}};
  const BootstrapBand same = WidenCdfBandForBlur(points, band, std::vector<double>(points.size(), 0.0));
  CHECK(same.low == band.low);
  CHECK(same.high == band.high);
  const BootstrapBand widened = WidenCdfBandForBlur(points, band, std::vector<double>(points.size(), 1.0));
  // low at x is low(x - 1), held at the first point's below it; high is high(x + 1), held at the last above.
  CHECK(widened.low == std::vector<double>{0.0, 0.0, 0.2, 0.6});
  CHECK(widened.high == std::vector<double>{0.4, 0.8, 1.0, 1.0});
  const BootstrapBand half = WidenCdfBandForBlur(points, band, std::vector<double>(points.size(), 0.5));  // interpolated halfway
  CHECK(half.low[2] == doctest::Approx(0.4));
  CHECK(half.high[1] == doctest::Approx(0.6));
}

TEST_CASE("blur bands: a bin narrower than the blur may hold nothing or everything the CDF band allows") {
  const std::vector<double> edges = {0.0, 1.0, 2.0, 3.0, 4.0};
  const std::vector<double> points = {0.5, 1.5, 2.5, 3.5};
  const BootstrapBand cdf{{0.1, 0.45, 0.75, 1.0}, {0.2, 0.55, 0.85, 1.0}};
  BootstrapBand bins{{0.2, 0.3, 0.2, 0.1}, {0.3, 0.4, 0.3, 0.2}};
  const BootstrapBand before = bins;
  WidenHistogramBandForBlur(edges, points, cdf, 0.0, bins);
  CHECK(bins.low == before.low);
  WidenHistogramBandForBlur(edges, points, cdf, 1.0, bins);
  // Bin [1, 2]: least F_low(1) - F_high(2) < 0 -> 0; most F_high(3) - F_low(0) = 0.85... - 0 (the range's start).
  CHECK(bins.low[1] == doctest::Approx(0.0));
  CHECK(bins.high[1] == doctest::Approx(0.85 + 0.5 * (1.0 - 0.85)));
  // Bin [0, 1]: never below the bootstrap's own band.
  CHECK(bins.high[0] >= before.high[0]);
  for (std::size_t k = 0; k < 4; ++k) {
    CHECK(bins.low[k] <= before.low[k]);
    CHECK(bins.high[k] >= before.high[k]);
    CHECK(bins.low[k] >= 0.0);
    CHECK(bins.high[k] <= 1.0);
  }
}

TEST_CASE("blur bands: a quantile's range from a CDF band, widened to the neighbouring points") {
  const std::vector<double> points = {0.5, 1.5, 2.5, 3.5};
  const BootstrapBand cdf{{0.1, 0.45, 0.75, 1.0}, {0.2, 0.55, 0.85, 1.0}};
  const NumericRange range{0.0, 4.0};
  // The median: the upper edge first reaches 0.5 at 1.5 (so from 0.5), the lower edge last at or below it at 1.5 (to 2.5).
  const BootstrapInterval median = QuantileRangeFromCdfBand(points, cdf, 0.5, range);
  CHECK(median.low == 0.5);
  CHECK(median.high == 2.5);
  // A quantile the band allows anywhere past the last point reaches the range's end.
  const BootstrapInterval top = QuantileRangeFromCdfBand(points, cdf, 1.0, range);
  CHECK(top.high == 4.0);
  const BootstrapInterval bottom = QuantileRangeFromCdfBand(points, cdf, 0.05, range);
  CHECK(bottom.low == 0.0);
}

TEST_CASE("windowed density band: the mass the CDF band allows in [x - w, x + w] over its width, holding the curve") {
  // CDF band on points 1, 3, 5, 7, 9 of the range [0, 10].
  const std::vector<double> points = {1, 3, 5, 7, 9};
  const BootstrapBand cdf{{0.05, 0.2, 0.45, 0.7, 0.9}, {0.15, 0.3, 0.55, 0.8, 0.95}};
  const std::vector<double> density = {0.1, 0.1, 0.1, 0.1, 0.1};
  const BootstrapBand band = WindowedDensityBand(points, cdf, {0, 10}, 2.0, density);
  // At 5: window [3, 7]: mass at least 0.7 - 0.3 = 0.4, at most 0.8 - 0.2 = 0.6, over 4 units.
  CHECK(band.low[2] == doctest::Approx(0.1));
  CHECK(band.high[2] == doctest::Approx(0.15));
  // At 1: window clipped to [0, 3] (the CDF is 0 at the range's low end): mass 0.2 to 0.3 over 3 units;
  // the curve's 0.1 is held.
  CHECK(band.low[0] == doctest::Approx(0.0666667));
  CHECK(band.high[0] == doctest::Approx(0.1));
  // At 9: window [7, 10] (the CDF is 1 at the high end): mass 1 - 0.8 = 0.2 to 1 - 0.7 = 0.3 over 3 units.
  CHECK(band.low[4] == doctest::Approx(0.0666667));
  CHECK(band.high[4] == doctest::Approx(0.1));
  // A lower bound below 0 is 0.
  const BootstrapBand loose{{0.0, 0.0, 0.0, 0.0, 0.0}, {1.0, 1.0, 1.0, 1.0, 1.0}};
  const BootstrapBand wide = WindowedDensityBand(points, loose, {0, 10}, 2.0, {0, 0, 0, 0, 0});
  CHECK(wide.low[2] == 0.0);
  CHECK(wide.high[2] == doctest::Approx(0.25));
}

TEST_CASE("blur bands: near an end the blur is that end's reach when larger; a blur per point widens per point") {
  const std::vector<double> points = {0.5, 1.5, 2.5, 3.5, 4.5, 5.5, 6.5, 7.5, 8.5, 9.5};
  const std::vector<double> blurs = BlurNearEnds(points, 0.25, EndReach{2.0, 1.0}, {0, 10});
  CHECK(blurs == std::vector<double>{2.0, 2.0, 0.25, 0.25, 0.25, 0.25, 0.25, 0.25, 0.25, 1.0});
  const BootstrapBand band{{0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9}, {0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0}};
  const BootstrapBand widened = WidenCdfBandForBlur(points, band, blurs);
  CHECK(widened.high[0] == doctest::Approx(0.3));  // high at 0.5 + 2
  CHECK(widened.high[3] == doctest::Approx(0.425));  // high at 3.5 + 0.25
  CHECK(widened.low[9] == doctest::Approx(0.8));  // low at 9.5 - 1
}
