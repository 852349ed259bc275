// The cell-integrated transition matrix (transition_matrix.h) of toy mechanisms
// with closed forms: Gauss-Legendre rules, columns, bands, tails, breakpoints,
// Monte Carlo agreement and validation.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <vector>

#include "core/common/seeded_random.h"
#include "core/distribution/transition_matrix.h"
#include "tests/cpp/support/toy_mechanisms.h"
#include "tests/cpp/support/stat_utils.h"

using namespace deniable;
using namespace deniable::testing;
using deniable::testing::ChiSquarePValue;

TEST_CASE("Gauss-Legendre rules integrate polynomials of degree 2n - 1 exactly") {
  for (int n : {1, 2, 4, 8, 16}) {
    const auto rule = GaussLegendre(n);
    double weights = 0.0;
    double top = 0.0;  // x^(2n-2): integral 2/(2n-1)
    double odd = 0.0;  // x^(2n-1): integral 0
    for (int k = 0; k < n; ++k) {
      weights += rule.weights[k];
      top += rule.weights[k] * std::pow(rule.nodes[k], 2 * n - 2);
      odd += rule.weights[k] * std::pow(rule.nodes[k], 2 * n - 1);
    }
    CHECK(weights == doctest::Approx(2.0).epsilon(1e-14));
    CHECK(top == doctest::Approx(2.0 / (2 * n - 1)).epsilon(1e-13));
    CHECK(std::abs(odd) < 1e-14);
  }
}

TEST_CASE("transition matrix: columns sum to 1, bands, and agreement with a 64-node reference") {
  const ToyWave wave(0.6, 0.1);
  const ToyTent tent(0.6, 0.1);
  TransitionOptions reference_options;
  reference_options.quadrature_nodes = 64;
  for (const NumericMechanism* mechanism :
       {static_cast<const NumericMechanism*>(&wave), static_cast<const NumericMechanism*>(&tent)}) {
    CAPTURE(mechanism->name());
    const auto matrix = TransitionMatrix::ForMechanism(*mechanism, 50, 120).value();
    const auto reference = TransitionMatrix::ForMechanism(*mechanism, 50, 120, reference_options).value();
    double worst = 0.0;
    for (int i = 0; i < 50; ++i) {
      double sum = 0.0;
      for (int j = 0; j < 120; ++j) {
        sum += matrix.at(j, i);
        worst = std::max(worst, std::abs(matrix.at(j, i) - reference.at(j, i)));
      }
      CHECK(sum == doctest::Approx(1.0).epsilon(1e-13));
    }
    // Entry error of the default 8-node rule: O(jump w^2) where the wave's
    // density jumps (by 3, at x +- 0.1; w = 1/50), while the tent's columns are
    // piecewise polynomials that 8 nodes integrate to round-off. Measured 8.5e-5
    // (wave entries are about 0.03) and 1.7e-16 (tent).
    CHECK(worst < (mechanism == &wave ? 2e-4 : 1e-13));
  }
  // The wave's columns are nonzero on the whole output range (its uniform part).
  const auto matrix = TransitionMatrix::ForMechanism(wave, 10, 12).value();
  CHECK(matrix.band_begin(3) == 0);
  CHECK(matrix.band_end(3) == 12);
}

TEST_CASE("transition matrix: bands skip exact zeros and T f maps probabilities to probabilities") {
  // Pure tent (beta = 1): outputs of input cell i lie within w of it.
  const ToyTent tent(1.0, 0.1);
  const auto matrix = TransitionMatrix::ForMechanism(tent, 10, 12).value();
  // Input cell 0 = [0, 0.1): outputs in [-0.1, 0.2), output cells of width 0.1 from -0.1: cells 0..2.
  CHECK(matrix.band_begin(0) == 0);
  CHECK(matrix.band_end(0) == 3);
  CHECK(matrix.band_begin(5) == 5);  // [0.5, 0.6): outputs in (0.4, 0.7) = cells 5..7
  CHECK(matrix.band_end(5) == 8);
  CHECK(matrix.at(4, 5) == 0.0);
  const auto mapped = matrix.Apply(BetaThreeThreeCells(10));
  CHECK(std::accumulate(mapped.begin(), mapped.end(), 0.0) == doctest::Approx(1.0).epsilon(1e-14));
}

TEST_CASE("transition matrix agrees with Monte Carlo reports of the toy mechanism") {
  // Answers uniform in input cell i, perturbed by the toy; the output cell
  // counts must fit column i (chi-square, p > 1e-3 each; 3 columns).
  const ToyWave wave(0.5, 0.15);
  const auto matrix = TransitionMatrix::ForMechanism(wave, 8, 26).value();
  SeededRandom random(20240601);
  for (int i : {0, 3, 7}) {
    auto histogram = NumericHistogram::ForMechanism(wave, 26).value();
    for (int r = 0; r < 40000; ++r) {
      const double x = (i + UniformUnit(random)) / 8.0;
      REQUIRE(histogram.Add(wave.Perturb(x, random).value()));
    }
    const std::vector<double> column(matrix.column(i), matrix.column(i) + 26);
    CHECK(ChiSquarePValue(histogram.counts(), column) > 1e-3);
  }
  // Canary: the column of the neighbouring cell must be rejected for cell 3's reports.
  auto histogram = NumericHistogram::ForMechanism(wave, 26).value();
  for (int r = 0; r < 40000; ++r) REQUIRE(histogram.Add(wave.Perturb((3 + UniformUnit(random)) / 8.0, random).value()));
  const std::vector<double> wrong(matrix.column(4), matrix.column(4) + 26);
  CHECK(ChiSquarePValue(histogram.counts(), wrong) < 1e-6);
}

TEST_CASE("transition matrix: clamped tails go to the end cells, exactly for exponential tails") {
  // Laplace with scale 0.2 and output range [-0.5, 1.5]: about e^-2.5 / 2 = 4%
  // of an edge answer's reports fall outside and are counted in the end cell.
  const ToyLaplace laplace(0.2, 0.5);
  TransitionOptions options;
  options.quadrature_nodes = 16;
  const auto matrix = TransitionMatrix::ForMechanism(laplace, 10, 40, options).value();
  // Exact: P(first cell | x) = P(y < -0.45 | x), averaged over the input cell
  // (a 64-node rule on the smooth exponential is exact to round-off).
  const auto rule = GaussLegendre(64);
  for (int i : {0, 4, 9}) {
    double first = 0.0;
    double last = 0.0;
    for (int k = 0; k < 64; ++k) {
      const double x = (i + 0.5 + 0.5 * rule.nodes[k]) / 10.0;
      first += 0.5 * rule.weights[k] * laplace.Cdf(-0.45 - x);
      last += 0.5 * rule.weights[k] * (1.0 - laplace.Cdf(1.45 - x));
    }
    CHECK(matrix.at(0, i) == doctest::Approx(first).epsilon(1e-10));
    CHECK(matrix.at(39, i) == doctest::Approx(last).epsilon(1e-10));
  }
}

TEST_CASE("transition matrix: splitting cells at breakpoints integrates a switch exactly") {
  // 5 input cells: cell 2 = [0.4, 0.6) straddles the switch at 1/2.
  // Its exact column: half the cell sees U[0, 1], half U[1/2, 1].
  TransitionOptions split;
  split.input_breakpoints = {0.5};
  const auto exact = TransitionMatrix::Integrate(SwitchProbability, {0.0, 1.0}, 5, {0.0, 1.0}, 4, split).value();
  CHECK(exact.at(0, 2) == doctest::Approx(0.5 * 0.25).epsilon(1e-14));
  CHECK(exact.at(3, 2) == doctest::Approx(0.5 * 0.25 + 0.5 * 0.5).epsilon(1e-14));
  // Without the breakpoint the 4 nodes see 2 + 2 of each side here by symmetry,
  // so use an odd rule, which gives the midpoint node to one side: visibly wrong.
  TransitionOptions odd;
  odd.quadrature_nodes = 3;
  const auto rough = TransitionMatrix::Integrate(SwitchProbability, {0.0, 1.0}, 5, {0.0, 1.0}, 4, odd).value();
  CHECK(std::abs(rough.at(0, 2) - 0.125) > 0.01);
}

TEST_CASE("transition matrix: invalid input is rejected with a message") {
  const ToyWave wave(0.5, 0.1);
  CHECK(TransitionMatrix::ForMechanism(wave, 0, 10).error() ==
        "transition input cells must be between 1 and 4096, but is 0");
  TransitionOptions options;
  options.quadrature_nodes = 0;
  CHECK_FALSE(TransitionMatrix::ForMechanism(wave, 10, 10, options));
  const auto broken = [](double, double, double) { return 2.0; };
  CHECK(
      TransitionMatrix::Integrate(broken, {0, 1}, 2, {0, 1}, 2).error().find("output probability must be in [0, 1]") ==
      0);
  const auto silent = [](double, double, double) { return 0.0; };
  CHECK(TransitionMatrix::Integrate(silent, {0, 1}, 2, {0, 1}, 2).error().find("has no mass") != std::string::npos);
  CHECK_FALSE(TransitionMatrix::FromColumns({0, 1}, 2, {0, 1}, 2, {1.0, 0.0, -1.0, 2.0}));
  CHECK_FALSE(TransitionMatrix::FromColumns({0, 1}, 2, {0, 1}, 2, {1.0}));
}

TEST_CASE("T f and T^T r four columns at a time equal the column-by-column sums (banded and full columns)") {
  // 11 input cells (two groups of four and three single columns), 9 output
  // cells; columns 0-3 full, 4-7 narrow bands far apart (one at a time), 8-10 odd widths.
  const int inputs = 11;
  const int outputs = 9;
  SeededRandom random(5);
  std::vector<double> entries(static_cast<std::size_t>(inputs * outputs), 0.0);
  const int begins[inputs] = {0, 0, 0, 0, 0, 7, 0, 7, 2, 3, 1};
  const int ends[inputs] = {9, 9, 9, 9, 2, 9, 2, 9, 7, 4, 8};
  for (int i = 0; i < inputs; ++i) {
    for (int j = begins[i]; j < ends[i]; ++j) entries[static_cast<std::size_t>(i * outputs + j)] = 0.1 + UniformUnit(random);
  }
  const auto matrix = TransitionMatrix::FromColumns({0.0, 1.0}, inputs, {0.0, 1.0}, outputs, entries).value();
  std::vector<double> f(inputs);
  for (double& value : f) value = UniformUnit(random);
  f[2] = 0.0;  // a zero weight adds nothing
  std::vector<double> r(outputs);
  for (double& value : r) value = 3.0 * UniformUnit(random);

  // T f: the same additions in the same order as one column at a time, so the same bits.
  std::vector<double> expected(outputs, 0.0);
  for (int i = 0; i < inputs; ++i) {
    if (f[static_cast<std::size_t>(i)] == 0.0) continue;
    for (int j = matrix.band_begin(i); j < matrix.band_end(i); ++j) {
      expected[static_cast<std::size_t>(j)] = expected[static_cast<std::size_t>(j)] + f[static_cast<std::size_t>(i)] * matrix.at(j, i);
    }
  }
  CHECK(matrix.Apply(f) == expected);

  // T^T r: each column's dot product, to round-off (the order of the additions differs).
  std::vector<double> back;
  matrix.ApplyTransposed(r, back);
  REQUIRE(back.size() == static_cast<std::size_t>(inputs));
  for (int i = 0; i < inputs; ++i) {
    double dot = 0.0;
    for (int j = 0; j < outputs; ++j) dot += matrix.at(j, i) * r[static_cast<std::size_t>(j)];
    CHECK(back[static_cast<std::size_t>(i)] == doctest::Approx(dot).epsilon(1e-14));
  }
}
