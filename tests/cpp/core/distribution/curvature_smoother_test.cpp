// The smoothing step of penalised EM (core/distribution/curvature_smoother.h).
#include <doctest/doctest.h>

#include <cmath>
#include <numeric>
#include <vector>

#include "core/distribution/curvature_smoother.h"

using namespace deniable;

namespace {

// (diag(1/e) + s D'D) g, computed directly from the definition.
std::vector<double> ApplySystem(const std::vector<double>& e, double s, const std::vector<double>& g) {
  const std::size_t m = g.size();
  std::vector<double> result(m);
  for (std::size_t i = 0; i < m; ++i) result[i] = g[i] / e[i];
  for (std::size_t row = 0; row + 2 < m; ++row) {
    const double second = g[row] - 2.0 * g[row + 1] + g[row + 2];
    result[row] += s * second;
    result[row + 1] -= 2.0 * s * second;
    result[row + 2] += s * second;
  }
  return result;
}

}  // namespace

TEST_CASE("curvature smoothing leaves straight lines unchanged") {
  // D^2 of a linear sequence is 0, so g = e solves the system exactly.
  std::vector<double> line(10);
  for (int i = 0; i < 10; ++i) line[i] = (1.0 + i) / 55.0;
  const auto smoothed = CurvatureSmooth(line, 1e6);
  for (int i = 0; i < 10; ++i) CHECK(smoothed[i] == doctest::Approx(line[i]).epsilon(1e-9));
  CHECK(SquaredCurvature(line) < 1e-30);
}

TEST_CASE("curvature smoothing solves (diag(1/e) + s D'D) g = 1 and sums to 1") {
  const std::vector<double> e = {0.05, 0.1, 0.3, 0.05, 0.2, 0.1, 0.15, 0.05};
  for (double s : {0.1, 3.0, 50.0}) {
    const auto g = CurvatureSmooth(e, s);
    // Before the renormalisation the system holds exactly; the sum of the
    // solution is within the model's error of 1, so check the scaled residual.
    const double sum = std::accumulate(g.begin(), g.end(), 0.0);
    CHECK(sum == doctest::Approx(1.0).epsilon(1e-12));
    bool clipped = false;
    for (double value : g) clipped = clipped || value == 0.0;
    if (clipped) continue;
    // g / c solves the system for some c > 0: its residual is a constant vector c * 1.
    const auto applied = ApplySystem(e, s, g);
    for (double value : applied) CHECK(value == doctest::Approx(applied[0]).epsilon(1e-9));
    CHECK(SquaredCurvature(g) < SquaredCurvature(e));
  }
}

TEST_CASE("curvature smoothing: strength 0 and tiny inputs") {
  const std::vector<double> e = {1.0, 3.0, 0.0, 4.0};
  const auto same = CurvatureSmooth(e, 0.0);
  CHECK(same == std::vector<double>{0.125, 0.375, 0.0, 0.5});
  // A zero cell is pinned near 0 by its weight 1/1e-12; nothing is negative.
  const auto smoothed = CurvatureSmooth({0.5, 0.0, 0.5, 0.0, 0.5}, 10.0);
  CHECK(smoothed[1] < 1e-9);
  for (double value : smoothed) CHECK(value >= 0.0);
  // Fewer than 3 cells have no curvature: only renormalised.
  CHECK(CurvatureSmooth({2.0, 2.0}, 5.0) == std::vector<double>{0.5, 0.5});
  CHECK(SquaredCurvature({1.0, 0.0, 1.0}) == 4.0);
  CHECK(SquaredCurvature({1.0, 0.0}) == 0.0);
}

TEST_CASE("curvature smoothing solves the system on a large grid") {
  // 1024 cells (the finest estimation grid): the band solve must stay exact
  // to rounding at the strengths PML uses there (s grows like m^5).
  std::vector<double> e(1024);
  double total = 0.0;
  for (std::size_t i = 0; i < e.size(); ++i) total += e[i] = 1.0 + 0.5 * std::sin(0.02 * i) + 0.01 * (i % 7);
  for (double& value : e) value /= total;
  for (double s : {1e-3, 1.0, 1e3}) {
    const auto g = CurvatureSmooth(e, s);
    INFO("s " << s);
    CHECK(std::accumulate(g.begin(), g.end(), 0.0) == doctest::Approx(1.0).epsilon(1e-12));
    const auto applied = ApplySystem(e, s, g);
    for (double value : applied) CHECK(value == doctest::Approx(applied[0]).epsilon(1e-9));
    CHECK(SquaredCurvature(g) < SquaredCurvature(e));
  }
}
