// The RVNS paper's noise-adding competitors that are only (epsilon, delta)
// private: Gaussian-pDP (core/numeric/gaussian_pdp.h) and Flipped Huber
// (core/numeric/flipped_huber.h). Exact behaviour (validation, the stated guarantee
// recomputed independently, the portable normal CDF against std::erfc), and
// statistics with fixed seeds: chi-square fit of samples against
// OutputProbability, unbiasedness and variance against the formulas. No
// pure-epsilon audit: neither mechanism claims a finite pure epsilon
// (epsilon() is nullopt), and their privacy loss is unbounded.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "core/numeric/flipped_huber.h"
#include "core/numeric/gaussian_pdp.h"
#include "core/common/seeded_random.h"
#include "core/distribution/transition_matrix.h"
#include "tests/cpp/support/stat_utils.h"

using namespace deniable;
using deniable::testing::ChiSquarePValue;

namespace {

constexpr NumericRange kRange{0.0, 10.0};
constexpr double kInfinity = std::numeric_limits<double>::infinity();

enum class Kind { kGaussian, kHuber };
const Kind kKinds[] = {Kind::kGaussian, Kind::kHuber};

const char* KindName(Kind kind) { return kind == Kind::kGaussian ? "gaussian_pdp" : "flipped_huber"; }

std::string CreateError(Kind kind, NumericRange range, double epsilon, double delta) {
  if (kind == Kind::kGaussian) {
    auto made = CreateGaussianPdp(range, epsilon, delta);
    return made.ok() ? "(created)" : made.error();
  }
  auto made = CreateFlippedHuber(range, epsilon, delta);
  return made.ok() ? "(created)" : made.error();
}

std::unique_ptr<const NumericMechanism> Make(Kind kind, double epsilon, double delta) {
  if (kind == Kind::kGaussian) {
    auto made = CreateGaussianPdp(kRange, epsilon, delta);
    REQUIRE(made.ok());
    return std::move(made).value();
  }
  auto made = CreateFlippedHuber(kRange, epsilon, delta);
  REQUIRE(made.ok());
  return std::move(made).value();
}

double ReferenceNormalCdf(double z) { return 0.5 * std::erfc(-z / std::sqrt(2.0)); }

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

TEST_CASE("gaussian-pDP and flipped Huber: creation validates range, epsilon and delta") {
  for (Kind kind : kKinds) {
    INFO(KindName(kind));
    CHECK(CreateError(kind, kRange, 0.0, 1e-5) == "epsilon must be finite and in [0.01, 30], but is 0");
    CHECK(CreateError(kind, kRange, 31.0, 1e-5) == "epsilon must be finite and in [0.01, 30], but is 31");
    CHECK(CreateError(kind, kRange, NAN, 1e-5) == "epsilon must be finite and in [0.01, 30], but is nan");
    CHECK(CreateError(kind, {5.0, 1.0}, 1.0, 1e-5) == "range must be finite with low < high, but is [5, 1]");
    CHECK(CreateError(kind, kRange, 1.0, 1e-5) == "(created)");
  }
  CHECK(CreateError(Kind::kGaussian, kRange, 1.0, 0.0) == "delta must be finite and in [1e-300, 1), but is 0");
  CHECK(CreateError(Kind::kGaussian, kRange, 1.0, 1.0) == "delta must be finite and in [1e-300, 1), but is 1");
  CHECK(CreateError(Kind::kGaussian, kRange, 1.0, NAN) == "delta must be finite and in [1e-300, 1), but is nan");
  CHECK(CreateError(Kind::kHuber, kRange, 1.0, 1e-101) == "delta must be finite and in [1e-100, 1), but is 1e-101");
  CHECK(CreateError(Kind::kHuber, kRange, 1.0, -0.5) == "delta must be finite and in [1e-100, 1), but is -0.5");
  // Ranges whose reports could overflow are refused by the range limits.
  CHECK(CreateError(Kind::kGaussian, {-1e300, 1e300}, 1.0, 1e-5) ==
        "range ends must lie in [-1000000000, 1000000000], but the range is [-1e+300, 1e+300]");
  CHECK(CreateError(Kind::kGaussian, {-1e9, 1e9}, 0.01, 1e-5) == "(created)");
  SeededRandom random(1);
  for (Kind kind : kKinds) {
    const auto mechanism = Make(kind, 1.0, 1e-5);
    CHECK(mechanism->Perturb(10.5, random).error() == "answer must be a number in [0, 10], but is 10.5");
    CHECK(mechanism->name() == KindName(kind));
    CHECK(mechanism->ParamsToJson() ==
          nlohmann::json({{"name", KindName(kind)}, {"epsilon", 1.0}, {"delta", 1e-5}}));
    // Neither has a finite pure epsilon: the guarantee is (epsilon, delta)-pDP / -DP (see the headers).
    CHECK_FALSE(mechanism->epsilon().has_value());
  }
}

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

TEST_CASE("gaussian-pDP and flipped Huber: samples fit OutputProbability (chi-square)") {
  // 100,000 reports at x = 3 in 40 equal cells over x +/- 4 sd plus two end
  // cells that OutputProbability extends to infinity; p > 1e-6 for a correct
  // sampler with probability 1 - 1e-6 per test (6 tests).
  const int trials = 100000;
  std::uint64_t seed = 11;
  for (Kind kind : kKinds) {
    for (double epsilon : {0.5, 4.0}) {
      INFO(KindName(kind) << " epsilon " << epsilon);
      const auto mechanism = Make(kind, epsilon, 1e-5);
      const double x = 3.0, sd = std::sqrt(*mechanism->UnbiasedValueVariance(x));
      const NumericRange output = mechanism->output_range();
      std::vector<double> edges{output.low};
      for (int i = 0; i <= 40; ++i) edges.push_back(x - 4.0 * sd + 0.2 * sd * i);
      edges.push_back(output.high);
      std::vector<double> probabilities;
      for (std::size_t j = 0; j + 1 < edges.size(); ++j) {
        probabilities.push_back(mechanism->OutputProbability(x, edges[j], edges[j + 1]));
      }
      std::vector<std::int64_t> counts(probabilities.size(), 0);
      SeededRandom random(seed++);
      for (int t = 0; t < trials; ++t) {
        const double y = mechanism->Perturb(x, random).value().at(0);
        const NumericRange possible = mechanism->possible_values();
        REQUIRE((y >= possible.low && y <= possible.high));
        const auto cell = std::upper_bound(edges.begin() + 1, edges.end() - 1, y) - edges.begin() - 1;
        ++counts[static_cast<std::size_t>(cell)];
      }
      double sum = 0.0;
      for (double p : probabilities) sum += p;
      CHECK(sum == doctest::Approx(1.0).epsilon(1e-12));
      CHECK(ChiSquarePValue(counts, probabilities) > 1e-6);
    }
  }
}

TEST_CASE("gaussian-pDP and flipped Huber: reports are unbiased with the stated variance") {
  // n = 100,000 reports at x = 9. Mean: |mean - x| <= 5 sd/sqrt(n). Variance:
  // the sample variance's standard error is sqrt((mu4 - var^2)/n), with mu4
  // estimated from the sample; |var_hat - var| <= 5 of those.
  const int n = 100000;
  for (Kind kind : kKinds) {
    INFO(KindName(kind));
    const auto mechanism = Make(kind, 1.0, 1e-5);
    const double x = 9.0, variance = *mechanism->UnbiasedValueVariance(x);
    SeededRandom random(kind == Kind::kGaussian ? 21 : 22);
    double sum = 0.0, squares = 0.0, fourth = 0.0;
    for (int t = 0; t < n; ++t) {
      const double e = mechanism->Perturb(x, random).value().at(0) - x;
      sum += e;
      squares += e * e;
      fourth += e * e * e * e;
    }
    const double mean = sum / n, second = squares / n, fourth_moment = fourth / n;
    CHECK(std::fabs(mean) <= 5.0 * std::sqrt(variance / n));
    CHECK(std::fabs(second - variance) <= 5.0 * std::sqrt((fourth_moment - second * second) / n));
  }
  // The Gaussian's variance is sigma^2; the flipped Huber's closed form matches a numeric integral.
  auto gaussian = CreateGaussianPdp(kRange, 1.0, 1e-5);
  REQUIRE(gaussian.ok());
  CHECK(*(*gaussian)->UnbiasedValueVariance(0.0) == (*gaussian)->sigma() * (*gaussian)->sigma());
  auto huber = CreateFlippedHuber(kRange, 1.0, 1e-5);
  REQUIRE(huber.ok());
  const FlippedHuberNoise& noise = (*huber)->noise();
  double integral = 0.0;
  const double step = noise.scale() / 100.0;
  for (double e = 0.0; e < 40.0 * noise.scale(); e += step) {
    const double middle = e + step / 2.0;
    integral += 2.0 * middle * middle * noise.Mass(e, e + step);
  }
  CHECK(integral == doctest::Approx(noise.Variance()).epsilon(1e-4));
}

TEST_CASE("gaussian-pDP and flipped Huber: transition matrices build from OutputProbability") {
  for (Kind kind : kKinds) {
    INFO(KindName(kind));
    const auto mechanism = Make(kind, 2.0, 1e-5);
    auto matrix = TransitionMatrix::ForMechanism(*mechanism, 20, 200);
    REQUIRE(matrix.ok());
    CHECK(matrix->input_cells() == 20);
    CHECK(matrix->output_cells() == 200);
  }
}

TEST_CASE("gaussian-pDP and flipped Huber: one seed gives the same reports (pinned)") {
  for (Kind kind : kKinds) {
    INFO(KindName(kind));
    const auto mechanism = Make(kind, 1.0, 1e-5);
    SeededRandom first(5), second(5);
    for (int t = 0; t < 100; ++t) {
      CHECK(mechanism->Perturb(4.0, first).value() == mechanism->Perturb(4.0, second).value());
    }
  }
}
