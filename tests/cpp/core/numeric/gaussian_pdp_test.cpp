// Gaussian-pDP (gaussian_pdp.h, the RVNS paper's baseline, seed 004 digest §8.2):
// the portable normal CDF and quantile against std::erfc, and sigma meeting
// P(|privacy loss| > epsilon) <= delta, tightly.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>

#include "core/numeric/gaussian_pdp.h"

using namespace deniable;

namespace {

constexpr NumericRange kRange{0.0, 10.0};
constexpr double kInfinity = std::numeric_limits<double>::infinity();

double ReferenceNormalCdf(double z) { return 0.5 * std::erfc(-z / std::sqrt(2.0)); }

}  // namespace

TEST_CASE("gaussian-pDP: the portable normal CDF and quantile match std::erfc") {
  double worst = 0.0;
  for (double z = -36.5; z <= 36.5; z += 0.0137) {
    worst = std::max(worst, std::fabs(PortableNormalCdf(z) - ReferenceNormalCdf(z)) / ReferenceNormalCdf(z));
  }
  CHECK(worst < 1e-12);
  CHECK(PortableNormalCdf(0.0) == 0.5);
  CHECK(PortableNormalCdf(-40.0) == 0.0);
  CHECK(PortableNormalCdf(kInfinity) == 1.0);
  for (double p : {1e-300, 1e-9, 5e-6, 0.025, 0.5, 0.975}) {
    CHECK(PortableNormalCdf(PortableNormalQuantile(p)) == doctest::Approx(p).epsilon(1e-12));
  }
}

TEST_CASE("gaussian-pDP: sigma meets P(|privacy loss| > epsilon) <= delta, tightly") {
  // Independent check with std::erfc: at r = D/sigma the loss is N(r^2/2, r^2);
  // the upper tail must equal delta/2 (the calibration is tight) and both tails together stay below delta.
  for (double epsilon : {0.25, 1.0, 4.0}) {
    for (double delta : {1e-3, 1e-5, 1e-9}) {
      auto made = CreateGaussianPdp(kRange, epsilon, delta);
      REQUIRE(made.ok());
      const double r = kRange.width() / (*made)->sigma();
      const double upper = ReferenceNormalCdf((r * r / 2.0 - epsilon) / r);
      const double lower = ReferenceNormalCdf((-epsilon - r * r / 2.0) / r);
      CHECK(upper == doctest::Approx(delta / 2.0).epsilon(1e-9));
      CHECK(upper + lower <= delta);
      CHECK((*made)->pdp_epsilon() == epsilon);
      CHECK((*made)->delta() == delta);
    }
  }
  // A hand value: epsilon 1, delta 1e-5, D = 10: z = -4.41717341346902, sigma = 10 (sqrt(z^2 + 2) - z) / 2.
  auto made = CreateGaussianPdp(kRange, 1.0, 1e-5);
  REQUIRE(made.ok());
  CHECK((*made)->sigma() == doctest::Approx(45.27608).epsilon(1e-6));
}
