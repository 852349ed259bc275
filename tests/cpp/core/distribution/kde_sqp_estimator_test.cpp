// The RVNS paper's estimator (kde_sqp_estimator.h, seed 004): the KDE bandwidth
// and reflection, the point transition matrix, the symmetric-KL SQP's exact
// minimiser, and an estimate from simulated reports.
#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "core/distribution/kde_sqp_estimator.h"
#include "core/distribution/transition_matrix.h"
#include "core/numeric/rvns.h"
#include "tests/cpp/support/toy_mechanisms.h"

using namespace deniable;
using namespace deniable::testing;

TEST_CASE("KDE bandwidth rule and reflection at the boundaries") {
  // 1000 cells of uniform counts on [0, 1]: the median is 1/2, the MAD 1/4, so
  // h = (0.25 / 0.6745) (4 / (3 N))^(1/5), with N = 1000 * 50 values.
  const std::vector<double> counts(1000, 50.0);
  const double expected = 0.25 / 0.6745 * std::pow(4.0 / (3.0 * 50000.0), 0.2);
  CHECK(SilvermanMadBandwidth({0.0, 1.0}, counts) == doctest::Approx(expected).epsilon(1e-9));
  // Floor: never below one cell width (here N is so large the rule would go below it).
  CHECK(SilvermanMadBandwidth({0.0, 1.0}, std::vector<double>(10, 1e12)) == doctest::Approx(0.1));

  // Uniform data: the reflected KDE is flat to within binning error (h = 0.05
  // spans 50 cells, relative error < 1e-3), the plain KDE halves at the ends.
  const std::vector<double> points{0.0, 0.5, 1.0};
  const auto reflected = BinnedGaussianKde({0.0, 1.0}, counts, points, 0.05, true);
  const auto plain = BinnedGaussianKde({0.0, 1.0}, counts, points, 0.05, false);
  for (double value : reflected) CHECK(value == doctest::Approx(1.0).epsilon(1e-3));
  CHECK(plain[0] == doctest::Approx(0.5).epsilon(2e-3));
  CHECK(plain[1] == doctest::Approx(1.0).epsilon(1e-3));
}

TEST_CASE("the paper's point transition matrix is p(x_i, y_j) normalised per column") {
  const auto density = [](double x, double y) { return 1.0 + x * y; };
  const auto matrix = PointTransitionMatrix(density, {0.0, 1.0}, {0.0, 2.0}, 4).value();
  // Column 1: x = 0.375, y at 0.25, 0.75, 1.25, 1.75.
  double sum = 0.0;
  for (double y : {0.25, 0.75, 1.25, 1.75}) sum += 1.0 + 0.375 * y;
  CHECK(matrix.at(2, 1) == doctest::Approx((1.0 + 0.375 * 1.25) / sum).epsilon(1e-14));
  CHECK(PointTransitionMatrix(density, {0.0, 1.0}, {0.0, 1.0}, 1).error() ==
        "KDE-SQP points must be between 2 and 1000, but is 1");
}

TEST_CASE("symmetric-KL SQP reaches the exact minimiser f on noise-free input") {
  // An invertible toy channel: p(x, y) = 1 + 1.5 (|y - x| - (x^2 + (1-x)^2)/2) > 0
  // on [0, 1]^2 (cond(P) about 5e2 at m = 20). With G = P f and λ = 0, F(f) = 0
  // is the unique minimum; SLSQP gets within 1e-9 relative (measured 4e-12,
  // F = 2e-31).
  const auto density = [](double x, double y) {
    return 1.0 + 1.5 * (std::abs(y - x) - 0.5 * (x * x + (1.0 - x) * (1.0 - x)));
  };
  const int m = 20;
  const auto matrix = PointTransitionMatrix(density, {0.0, 1.0}, {0.0, 1.0}, m).value();
  const auto truth = BetaThreeThreeCells(m);
  const auto fit = MinimiseSymmetricKl(matrix, matrix.Apply(truth), 0.0).value();
  CAPTURE(fit.solver_status);
  CHECK(fit.objective < 1e-20);
  for (int i = 0; i < m; ++i) CHECK(fit.probabilities[i] == doctest::Approx(truth[i]).epsilon(1e-9));
  // The roughness penalty moves it off f; a huge λ flattens it to the uniform
  // distribution, the penalty's own minimiser (which also exercises its
  // gradient): measured 1e-8 from 1/m = 0.05.
  const auto smoothed = MinimiseSymmetricKl(matrix, matrix.Apply(truth), 1e-3).value();
  CHECK(MaxAbsDifference(smoothed.probabilities, truth) > 1e-4);
  const auto flat = MinimiseSymmetricKl(matrix, matrix.Apply(truth), 1e3).value();
  CHECK(MaxAbsDifference(flat.probabilities, std::vector<double>(m, 1.0 / m)) < 1e-3 / m);
}

TEST_CASE("symmetric-KL SQP on RVNS: the exact minimum, along a null space of d-periodic modes") {
  // RVNS's point transition matrix on the same input and output grid is
  // singular: inputs that differ by a zero-mean pattern of period d give the
  // same outputs (the window density is a box convolved with a box). So
  // "exact minimiser" means F = 0, i.e. P u = P f, not u = f.
  auto rvns = CreateRvns({{0.0, 10.0}, 2.0, 1, RvnsParams::WindowMode::kShared, 0.0}).value();
  const int m = 30;
  const auto matrix = PointTransitionMatrix([&](double x, double y) { return rvns->TransitionDensity(x, y); },
                                            {0.0, 10.0}, {0.0, 10.0}, m)
                          .value();
  const auto truth = BetaThreeThreeCells(m);
  const auto target = matrix.Apply(truth);
  const auto fit = MinimiseSymmetricKl(matrix, target, 0.0).value();
  CHECK(fit.objective < 1e-20);
  const auto predicted = matrix.Apply(fit.probabilities);
  for (int j = 0; j < m; ++j) CHECK(predicted[j] == doctest::Approx(target[j]).epsilon(1e-8));
  // ... while u itself differs from f along the null space (measured 7e-4, 1% of max f).
  CHECK(MaxAbsDifference(fit.probabilities, truth) > 1e-4);
}

TEST_CASE("KDE + SQP estimates a distribution from simulated reports") {
  // The tent toy on [0, 1], outputs on [-0.1, 1.1]; m = 24 points over the
  // output range for G and over the input range for f. Measured W1 0.0028;
  // bound 0.01.
  const ToyTent tent(0.7, 0.1);
  const auto histogram = SimulateHistogram(tent, 256, 20000, 11);
  const auto density = [&tent](double x, double y) {
    // The tent's density: derivative of its OutputProbability.
    const double h = 1e-6;
    return tent.OutputProbability(x, y - h, y + h) / (2.0 * h);
  };
  KdeSqpOptions options;
  options.points = 24;
  const auto result = EstimateKdeSqp(histogram, tent.input_range(), density, options);
  REQUIRE(result);
  CHECK(result->bandwidth > 0.0);
  CHECK(W1(result->probabilities, BetaThreeThreeCells(24)) < 0.01);
  options.bandwidth = -1.0;
  CHECK_FALSE(EstimateKdeSqp(histogram, tent.input_range(), density, options));
}
