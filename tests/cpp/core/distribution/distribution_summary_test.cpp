// Summaries of an estimated distribution (distribution_summary.h): exact moments
// and quantiles, density on chosen points and histograms for any bin width.
#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "core/distribution/distribution_summary.h"

using namespace deniable;

TEST_CASE("summaries are exact for a uniform distribution") {
  const GridDistribution uniform{{2.0, 6.0}, std::vector<double>(10, 0.1)};
  const auto s = Summarize(uniform);
  CHECK(s.mean == doctest::Approx(4.0).epsilon(1e-14));
  CHECK(s.standard_deviation == doctest::Approx(4.0 / std::sqrt(12.0)).epsilon(1e-13));
  CHECK(s.median == doctest::Approx(4.0).epsilon(1e-14));
  CHECK(s.lower_quartile == doctest::Approx(3.0).epsilon(1e-14));
  CHECK(s.upper_quartile == doctest::Approx(5.0).epsilon(1e-14));
  CHECK(std::abs(s.skewness) < 1e-12);
  CHECK(s.kurtosis == doctest::Approx(1.8).epsilon(1e-12));
}

TEST_CASE("summaries are exact for a two-step density") {
  // Density 0.25 on [0, 1), 0.75 on [1, 2]: mean 1.25, E X^2 = 1/12 + 21/12,
  // variance 13/48, median 1 + 0.25/0.75 = 4/3, quartile 1 exactly.
  const GridDistribution steps{{0.0, 2.0}, {0.25, 0.75}};
  const auto s = Summarize(steps);
  CHECK(s.mean == doctest::Approx(1.25).epsilon(1e-14));
  CHECK(s.standard_deviation == doctest::Approx(std::sqrt(13.0 / 48.0)).epsilon(1e-14));
  CHECK(s.median == doctest::Approx(4.0 / 3.0).epsilon(1e-14));
  CHECK(s.lower_quartile == doctest::Approx(1.0).epsilon(1e-14));
  CHECK(s.upper_quartile == doctest::Approx(1.0 + 0.5 / 0.75).epsilon(1e-14));
  // Third central moment: 0.25 ((-.75)^3 + (-.75)(.25)) + 0.75 ((.25)^3 + .25 .25) with h = 1/2.
  const double third = 0.25 * (-0.421875 - 0.1875) + 0.75 * (0.015625 + 0.0625);
  CHECK(s.skewness == doctest::Approx(third / std::pow(13.0 / 48.0, 1.5)).epsilon(1e-13));
}

TEST_CASE("summaries of the triangular distribution match its exact values up to the cell terms") {
  // Symmetric triangle on [0, 1] with exact cell masses on m = 100 cells
  // (w = 0.01). Within a cell the true density is linear, the grid one flat:
  // the mean and median are exact (symmetry); the variance of the grid density
  // is exactly 1/24 + w^2/6 (each cell adds slope (c - mean) w^3/6), its
  // kurtosis 2.4 (1 + 2 w^2 - c w^4) with c about 40 (measured -4e-7 relative
  // at w = 0.01; bound 2e-6 = 200 w^4); quartiles interpolate the exact CDF
  // 2x^2 linearly between edges: error <= F'' w^2 / (8 F') = w^2 / (8 x) < 4e-5.
  const int m = 100;
  const double w = 1.0 / m;
  auto cdf = [](double x) { return x < 0.5 ? 2.0 * x * x : 1.0 - 2.0 * (1.0 - x) * (1.0 - x); };
  std::vector<double> cells(m);
  for (int i = 0; i < m; ++i) cells[i] = cdf((i + 1.0) / m) - cdf(static_cast<double>(i) / m);
  const auto s = Summarize({{0.0, 1.0}, cells});
  CHECK(s.mean == doctest::Approx(0.5).epsilon(1e-14));
  CHECK(s.median == doctest::Approx(0.5).epsilon(1e-14));
  CHECK(s.standard_deviation == doctest::Approx(std::sqrt(1.0 / 24.0 + w * w / 6.0)).epsilon(1e-12));
  CHECK(s.kurtosis == doctest::Approx(2.4 * (1.0 + 2.0 * w * w)).epsilon(2e-6));
  CHECK(std::abs(s.skewness) < 1e-10);
  CHECK(std::abs(s.lower_quartile - std::sqrt(0.125)) < 4e-5);
  CHECK(std::abs(s.upper_quartile - (1.0 - std::sqrt(0.125))) < 4e-5);
}

TEST_CASE("density on chosen points re-bins mass exactly; histograms for any bin width") {
  auto cdf = [](double x) { return x < 0.5 ? 2.0 * x * x : 1.0 - 2.0 * (1.0 - x) * (1.0 - x); };
  std::vector<double> cells(100);
  for (int i = 0; i < 100; ++i) cells[i] = cdf((i + 1.0) / 100) - cdf(i / 100.0);
  const GridDistribution triangle{{0.0, 1.0}, cells};

  const auto curve = DensityOnPoints(triangle, 8).value();
  REQUIRE(curve.points.size() == 8);
  CHECK(curve.points[0] == doctest::Approx(1.0 / 16.0));
  // Display cell [1/8, 2/8): mass F(1/4) - F(1/8) exactly (its edges fall inside grid cells: the grid CDF is
  // linear there, off the exact one by < w^2 = 1e-4 of density * width).
  CHECK(curve.density[1] * 0.125 == doctest::Approx(cdf(0.25) - cdf(0.125)).epsilon(1e-3));
  CHECK(curve.cdf[4] == doctest::Approx(cdf(9.0 / 16.0)).epsilon(1e-4));
  double mass = 0.0;
  for (double d : curve.density) mass += d / 8.0;
  CHECK(mass == doctest::Approx(1.0).epsilon(1e-14));
  // More display points than grid cells: a staircase, still exact mass.
  CHECK(DensityOnPoints(triangle, 1000).value().density[0] == doctest::Approx(cells[0] / 0.01).epsilon(1e-12));
  CHECK(DensityOnPoints(triangle, 0).error() == "density points must be between 1 and 1000, but is 0");
  CHECK_FALSE(DensityOnPoints(triangle, 1001));

  const auto histogram = HistogramWithBinWidth(triangle, 0.3).value();
  CHECK(histogram.edges == std::vector<double>{0.0, 0.3, 0.6, 0.8999999999999999, 1.0});
  CHECK(histogram.probabilities[0] == doctest::Approx(cdf(0.3)).epsilon(1e-14));  // 0.3 is a grid edge
  CHECK(histogram.probabilities[3] == doctest::Approx(1.0 - cdf(0.9)).epsilon(1e-12));
  const auto halves = HistogramWithBinWidth(triangle, 0.5).value();
  REQUIRE(halves.probabilities.size() == 2);
  CHECK(halves.probabilities[0] == doctest::Approx(0.5).epsilon(1e-14));
  CHECK_FALSE(HistogramWithBinWidth(triangle, 0.0));
  CHECK_FALSE(HistogramWithBinWidth(triangle, 1e-9));
}

TEST_CASE("quantiles skip empty cells; the median of a gap is its left end") {
  // Mass 0.5 in cell 2 ([2, 3)) and 0.5 in cell 7 ([7, 8)) of [0, 10].
  std::vector<double> cells(10, 0.0);
  cells[2] = 0.5;
  cells[7] = 0.5;
  const GridDistribution gapped{{0.0, 10.0}, cells};
  CHECK(Quantile(gapped, 0.0) == doctest::Approx(2.0));
  CHECK(Quantile(gapped, 0.25) == doctest::Approx(2.5));
  CHECK(Quantile(gapped, 0.5) == doctest::Approx(3.0));
  CHECK(Quantile(gapped, 0.75) == doctest::Approx(7.5));
  CHECK(Quantile(gapped, 1.0) == doctest::Approx(8.0));
  CHECK(Cdf(gapped, 5.0) == doctest::Approx(0.5));
  CHECK(Cdf(gapped, -1.0) == 0.0);
  CHECK(Cdf(gapped, 11.0) == 1.0);
  CHECK(ValidateGridDistribution({{0.0, 1.0}, {0.5, 0.6}}).error() ==
        "cell probabilities must sum to 1, but sum to 1.1");
  CHECK_FALSE(ValidateGridDistribution({{0.0, 1.0}, {}}));
  CHECK_FALSE(ValidateGridDistribution({{0.0, 1.0}, {1.5, -0.5}}));
  CHECK(MakeGridDistribution({0.0, 1.0}, {2.0, -1e-15, 2.0}).value().probabilities ==
        std::vector<double>{0.5, 0.0, 0.5});
}
