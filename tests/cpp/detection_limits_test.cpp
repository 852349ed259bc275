// The mass the reports cannot see (detection_limits.h): exact values on a two-cell channel, and the CDF band
// widened only where the fit's tail is thinner than it.
#include <doctest/doctest.h>

#include <cmath>

#include "core/kinds/numeric/detection_limits.h"

using namespace deniable;

TEST_CASE("detection limits: delta = 1.96 / sqrt(N * sum_j (T(u - f))_j^2 / (T f)_j) on each side of a point") {
  // Input [0, 2] in two cells, output [0, 2] in two cells; cell 0 reports 0.75 / 0.25, cell 1 0.25 / 0.75.
  const auto transition = TransitionMatrix::FromColumns({0, 2}, 2, {0, 2}, 2, {0.75, 0.25, 0.25, 0.75});
  REQUIRE(transition.ok());
  const std::vector<double> fitted = {1.0, 0.0};
  const DetectionLimits limits = UndetectableMass(*transition, fitted, 300.0, {0.25, 1.0, 1.75});
  // Above 1.0 is cell 1: the change is (-0.5, 0.5) against (0.75, 0.25): S = 0.25 / 0.75 + 0.25 / 0.25 = 4/3.
  CHECK(limits.above[1] == doctest::Approx(1.959963984540054 / std::sqrt(300.0 * 4.0 / 3.0)));
  // Below 1.0 is cell 0, where the fit already is: moving mass there changes nothing, so nothing bounds it.
  CHECK(limits.below[1] == 1.0);
  // 0.25 is below cell 0's centre (0.5): everything is above; 1.75 is above cell 1's centre: nothing is.
  // u is cells 0 and 1 evenly: the change is (-0.25, 0.25), S = 1/3.
  CHECK(limits.above[0] == doctest::Approx(1.959963984540054 / std::sqrt(300.0 / 3.0)));
  CHECK(limits.below[0] == 0.0);
  CHECK(limits.above[2] == 0.0);
}

TEST_CASE("detection limits: the CDF band widens only where the fit claims less than the limit") {
  const std::vector<double> cdf = {0.001, 0.5, 0.999};
  const BootstrapBand band{{0.0, 0.45, 0.998}, {0.002, 0.55, 1.0}};
  const DetectionLimits limits{{0.1, 0.1, 0.1}, {0.1, 0.1, 0.1}};
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
