// Bumps of the density that the band does not support (unsupported_bumps.h): exact positions on small curves.
#include <doctest/doctest.h>

#include "core/kinds/numeric/unsupported_bumps.h"

using namespace deniable;

TEST_CASE("unsupported bumps: a local maximum where the band reaches 0, not the peak, not a ripple") {
  const std::vector<double> points = {0, 1, 2, 3, 4, 5, 6, 7};
  // A bump at the low end (0), the peak at 4, a ripple at 6 (falls 0.01 of 0.21 before higher ground... none: the end).
  const std::vector<double> density = {0.10, 0.02, 0.01, 0.30, 0.50, 0.20, 0.21, 0.205};
  const BootstrapBand zero_low{std::vector<double>(8, 0.0), std::vector<double>(8, 1.0)};
  // 0: falls to 0.01 before higher ground (0.30): a bump. 6: falls only to 0.205 towards the end and 0.20 towards
  // the peak: prominence 0.01 < a quarter of 0.21, a ripple.
  CHECK(UnsupportedBumps(points, density, zero_low) == std::vector<double>{0});
  // Where the band stays above 0 the bump is supported.
  BootstrapBand supported = zero_low;
  supported.low[0] = 0.01;
  CHECK(UnsupportedBumps(points, density, supported).empty());
  // A bump lower than 2% of the peak is not shown.
  const std::vector<double> faint = {0.009, 0.001, 0.0, 0.30, 0.50, 0.20, 0.10, 0.0};
  CHECK(UnsupportedBumps(points, faint, zero_low).empty());
  // A flat top counts once, at its first point.
  const std::vector<double> flat = {0.10, 0.10, 0.01, 0.30, 0.50, 0.20, 0.10, 0.0};
  CHECK(UnsupportedBumps(points, flat, zero_low) == std::vector<double>{0});
}

TEST_CASE("unsupported bumps: the note names the places with the unit") {
  CHECK(UnsupportedBumpsNote({}, "h").empty());
  CHECK(UnsupportedBumpsNote({0.03}, "hours") ==
        "the bump of the curve near 0.03 hours is not supported by the reports: the band reaches 0 there, so the "
        "reports fit as well with no answers there at all; it may be the estimator's smoothing, not the answers");
  CHECK(UnsupportedBumpsNote({1, 2, 3}, "").rfind("the bumps of the curve near 1, 2 and 3 are not supported", 0) == 0);
}
