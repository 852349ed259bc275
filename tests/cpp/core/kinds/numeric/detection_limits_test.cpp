// The mass the reports cannot see (detection_limits.h): exact values on a two-cell channel, and the CDF band
// widened only where the fit's tail is thinner than it.
#include <doctest/doctest.h>

#include <cmath>

#include "core/kinds/numeric/detection_limits.h"

using namespace deniable;

// The chi-square of moving `share` along the change d against the moved distribution's own variance.
double ChiSquare(double reports, double share, const std::vector<double>& expected, const std::vector<double>& change) {
  double sum = 0.0;
  for (std::size_t j = 0; j < expected.size(); ++j) {
    sum += std::pow(share * change[j], 2) / (expected[j] + share * change[j]);
  }
  return reports * sum;
}

TEST_CASE("detection limits: the share whose chi-square against the moved distribution is 1.96^2, on each side") {
  // Input [0, 2] in two cells, output [0, 2] in two cells; cell 0 reports 0.75 / 0.25, cell 1 0.25 / 0.75.
  const auto transition = TransitionMatrix::FromColumns({0, 2}, 2, {0, 2}, 2, {0.75, 0.25, 0.25, 0.75});
  REQUIRE(transition.ok());
  const std::vector<double> fitted = {1.0, 0.0};
  const DetectionLimits limits = UndetectableMass(*transition, fitted, 300.0, {0.25, 1.0, 1.75});
  const double critical = 1.959963984540054 * 1.959963984540054;
  // Above 1.0 is cell 1: the change is (-0.5, 0.5) against (0.75, 0.25). The far end (cell 0) is where the fit
  // already is, so nothing compensates.
  CHECK(limits.above[1].compensation == 0.0);
  CHECK(ChiSquare(300.0, limits.above[1].share, {0.75, 0.25}, {-0.5, 0.5}) == doctest::Approx(critical).epsilon(1e-9));
  // The linear chi-square (the fit's variance) would have given 1.96 / sqrt(300 * 4/3); the moved distribution's
  // variance at the high output is larger, so more can hide.
  CHECK(limits.above[1].share > 1.959963984540054 / std::sqrt(300.0 * 4.0 / 3.0));
  // Below 1.0 is cell 0, where the fit already is: moving mass there changes nothing, so nothing bounds it.
  CHECK(limits.below[1].share == 1.0);
  // 0.25 is below cell 0's centre (0.5): everything is above, nothing below; 1.75: the reverse. Above 0.25 the
  // nearest half of the cells is cell 0, where the fit is: all of it may be there, above 0.25.
  CHECK(limits.above[0].share == 1.0);
  CHECK(limits.below[0].share == 0.0);
  CHECK(limits.above[2].share == 0.0);
}

TEST_CASE("detection limits: a move the far end can balance is as undetectable as the balance allows") {
  // Input [0, 3] in three cells; the output says only "high" with probability (cell) / 2: a channel that sees
  // the mean and nothing else. All answers in the middle cell.
  const auto transition =
      TransitionMatrix::FromColumns({0, 3}, 3, {0, 2}, 2, {1.0, 0.0, 0.5, 0.5, 0.0, 1.0});
  REQUIRE(transition.ok());
  const DetectionLimits limits = UndetectableMass(*transition, {0.0, 1.0, 0.0}, 1e6, {1.5});
  // Half the answers moved to cell 2 and half to cell 0 keep the mean: no number of reports detects it. The
  // compensation is 1 (as much to the low end as above), and the share is all a distribution allows, 1 / 2.
  CHECK(limits.above[0].compensation == doctest::Approx(1.0));
  CHECK(limits.above[0].share == doctest::Approx(0.5));
}

TEST_CASE("detection limits: the CDF band widens only where the fit claims less than the limit") {
  const std::vector<double> cdf = {0.001, 0.5, 0.999};
  const BootstrapBand band{{0.0, 0.45, 0.998}, {0.002, 0.55, 1.0}};
  const DetectionLimits limits{{{0.1, 0.0}, {0.1, 0.0}, {0.1, 0.0}}, {{0.1, 0.0}, {0.1, 0.0}, {0.1, 0.0}}};
  const BootstrapBand widened = WidenCdfBandForUndetectableMass(cdf, band, limits);
  // At 0.999 the fit has 0.001 above, less than 0.1: the answers' CDF may be as low as 0.9 * 0.999.
  CHECK(widened.low[2] == doctest::Approx(0.8991));
  CHECK(widened.high[2] == 1.0);
  // At 0.001 the fit has 0.001 below: as high as 0.001 + 0.1 * 0.999.
  CHECK(widened.high[0] == doctest::Approx(0.1009));
  CHECK(widened.low[0] == 0.0);
  // In the middle the mass is detectable on both sides: the bootstrap band stands.
  CHECK(widened.low[1] == 0.45);
  CHECK(widened.high[1] == 0.55);
}

TEST_CASE("detection limits: a compensated move lowers the CDF by what leaves less what comes back below") {
  const std::vector<double> cdf = {0.9};
  const BootstrapBand band{{0.85}, {0.95}};
  // 0.2 moved above, 0.2 * 1 added at the low end: the CDF loses 0.2 * (2 * 0.9 - 1) = 0.16.
  const DetectionLimits limits{{{0.2, 1.0}}, {{0.0, 0.0}}};
  const BootstrapBand widened = WidenCdfBandForUndetectableMass(cdf, band, limits);
  CHECK(widened.low[0] == doctest::Approx(0.74));
  CHECK(widened.high[0] == 0.95);
}
