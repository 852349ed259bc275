// Square Wave (square_wave.h, Li et al. 2020): its default half-width b is the
// paper's formula and maximises the paper's mutual-information bound.
#include <doctest/doctest.h>

#include <cmath>

#include "core/numeric/square_wave.h"

using namespace deniable;

namespace {

// Asymmetric around 0 with width 10, as the other numeric mechanisms' tests.
constexpr NumericRange kRange{-2.0, 8.0};

// The paper's closed form (Li et al. 2020, §4): cancels at small eps, fine for eps >= 0.1.
double PaperHalfWidth(double eps) {
  const double e = std::exp(eps);
  return (eps * e - e + 1) / (2 * e * (e - 1 - eps));
}

// The paper's bound on the mutual information between v and v~ for half-width b.
double MutualInformationBound(double b, double eps) {
  const double q = 1 / (2 * b * std::exp(eps) + 1), p = std::exp(eps) * q;
  return std::log(1 + 2 * b) + 2 * b * p * std::log(p) + q * std::log(q);
}

// Golden-section search for the maximiser over b in (0, 2]: the bound is unimodal in b.
double MaximiseMutualInformationBound(double eps) {
  const double ratio = (std::sqrt(5.0) - 1) / 2;
  double low = 1e-12, high = 2.0;
  for (int i = 0; i < 200; ++i) {
    const double left = high - ratio * (high - low), right = low + ratio * (high - low);
    if (MutualInformationBound(left, eps) < MutualInformationBound(right, eps)) {
      low = left;
    } else {
      high = right;
    }
  }
  return 0.5 * (low + high);
}

}  // namespace

TEST_CASE("numeric baselines: Square Wave's default b is the paper's formula and maximises its MI bound") {
  for (double eps : {0.1, 0.5, 1.0, 2.0, 4.0, 10.0, 30.0}) {
    INFO("eps=" << eps);
    CHECK(SquareWaveOptimalHalfWidth(eps) == doctest::Approx(PaperHalfWidth(eps)).epsilon(1e-10));
    if (eps <= 10.0) {
      // The bound is flat at its maximum: the argmax is found to ~1e-7 relative.
      CHECK(SquareWaveOptimalHalfWidth(eps) == doctest::Approx(MaximiseMutualInformationBound(eps)).epsilon(1e-5));
    }
  }
  CHECK(SquareWaveOptimalHalfWidth(1.0) == doctest::Approx(0.25608293750147265).epsilon(1e-14));
  // Small epsilon: b = 1/2 - eps/3 + O(eps^2), where the closed form loses every digit.
  CHECK(SquareWaveOptimalHalfWidth(1e-9) == doctest::Approx(0.5 - 1e-9 / 3).epsilon(1e-15));
  CHECK(SquareWaveOptimalHalfWidth(1e-300) == 0.5);
  const auto made = CreateSquareWave(kRange, 1.0);
  REQUIRE(made.ok());
  CHECK((*made)->half_width() == SquareWaveOptimalHalfWidth(1.0));
  CHECK((*made)->inner_density() / (*made)->outer_density() == doctest::Approx(std::exp(1.0)).epsilon(1e-15));
}
