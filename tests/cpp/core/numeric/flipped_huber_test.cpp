// Flipped Huber (flipped_huber.h, the RVNS paper's baseline, seed 004 digest §8.3):
// the calibrated noise meets (epsilon, delta)-DP, checked on fine cells.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/numeric/flipped_huber.h"

using namespace deniable;

namespace {

constexpr NumericRange kRange{0.0, 10.0};
constexpr double kInfinity = std::numeric_limits<double>::infinity();

// Hockey-stick divergence between the outputs for answers x0 and x1, summed
// over fine cells of OutputProbability: sum max(0, P(cell | x0) - e^eps P(cell | x1)).
// Coarse-graining can only lower it; with cells of s/200 the loss is negligible.
double CellHockeyStick(const NumericMechanism& mechanism, double x0, double x1, double epsilon, double cell) {
  const NumericRange output = mechanism.output_range();
  double total = 0.0;
  for (double y = output.low; y < output.high; y += cell) {
    const double p0 = mechanism.OutputProbability(x0, y, y + cell);
    const double p1 = mechanism.OutputProbability(x1, y, y + cell);
    total += std::max(0.0, p0 - std::exp(epsilon) * p1);
  }
  return total;
}

}  // namespace

TEST_CASE("flipped Huber: the calibrated noise meets (epsilon, delta)-DP, checked on fine cells") {
  for (double epsilon : {0.5, 2.0}) {
    for (double delta : {1e-3, 1e-6}) {
      auto made = CreateFlippedHuber(kRange, epsilon, delta);
      REQUIRE(made.ok());
      const FlippedHuberMechanism& huber = **made;
      INFO("epsilon " << epsilon << " delta " << delta << " alpha " << huber.noise().alpha());
      CHECK(huber.noise().scale() == doctest::Approx(kRange.width() / epsilon).epsilon(1e-15));
      // Bisection to the last bit of log(alpha): the achieved delta is at most, and within 1e-9 of, the target.
      CHECK(huber.achieved_delta() <= delta);
      CHECK(huber.achieved_delta() == doctest::Approx(delta).epsilon(1e-9));
      // The loss is continuous at alpha; the law integrates to 1.
      const double alpha = huber.noise().alpha();
      CHECK(huber.noise().Loss(std::nextafter(alpha, kInfinity)) == doctest::Approx(huber.noise().Loss(alpha)));
      CHECK(huber.noise().Mass(-kInfinity, kInfinity) == doctest::Approx(1.0).epsilon(1e-14));
      // The portable survival (calibration) and the std one (OutputProbability) agree.
      for (double t = -3.0 * alpha; t <= 3.0 * alpha; t += alpha / 7.0) {
        CHECK(huber.noise().Survival(t) == doctest::Approx(huber.noise().FastSurvival(t)).epsilon(1e-11));
      }
      // Independent: the divergence of the worst pair (0, 10) summed over cells of s/200.
      const double cell = huber.noise().scale() / 200.0;
      CHECK(CellHockeyStick(huber, 0.0, 10.0, epsilon, cell) == doctest::Approx(huber.achieved_delta()).epsilon(0.01));
      // A closer pair is no worse (log-concavity), and the closed form agrees with the cells there too.
      const double half = huber.noise().Delta(epsilon, 5.0);
      CHECK(half <= huber.achieved_delta());
      CHECK(CellHockeyStick(huber, 2.0, 7.0, epsilon, cell) <= huber.achieved_delta());
    }
  }
  // The smallest accepted delta still calibrates inside alpha <= 700 s at both ends of the epsilon range.
  for (double epsilon : {0.01, 30.0}) {
    auto smallest = CreateFlippedHuber(kRange, epsilon, 1e-100);
    REQUIRE(smallest.ok());
    CHECK((*smallest)->achieved_delta() <= 1e-100);
    CHECK((*smallest)->noise().alpha() < 700.0 * (*smallest)->noise().scale());
  }
}
