// What the RVNS paper's two (epsilon, delta) noise-adding baselines share,
// Gaussian-pDP (gaussian_pdp.h) and Flipped Huber (flipped_huber.h), each run
// through the same checks: validation, a chi-square fit of samples against
// OutputProbability, unbiasedness and variance against the formulas, transition
// matrices and pinned reports. Each one's own guarantee has its own test beside
// this one. No pure-epsilon audit: neither claims a finite pure epsilon.
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
