// Consistent joints (consistent_joint.h): iterative proportional fitting to the
// shown marginals, and the variance-weighted projection onto the margins.
#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "core/frequency/consistent_joint.h"

using namespace deniable;

TEST_CASE("block consistent joint: non-negative, sums to 1, margins equal to the shown marginals, dependence kept") {
  const std::vector<double> start = {0.3, 0.001, 0.1, 0.05, 0.25, 0.32};
  const std::vector<double> consistent = FitMargins(start, {2, 3}, {{0.4, 0.6}, {0.3, 0.25, 0.45}});
  const std::vector<std::vector<double>> margins = {{0.4, 0.6}, {0.3, 0.25, 0.45}};
  double total = 0.0;
  for (double p : consistent) {
    CHECK(p >= 0.0);
    total += p;
  }
  CHECK(total == doctest::Approx(1.0).epsilon(1e-9));
  for (int a = 0; a < 2; ++a) CHECK(consistent[static_cast<std::size_t>(a * 3)] + consistent[static_cast<std::size_t>(a * 3 + 1)] +
                                        consistent[static_cast<std::size_t>(a * 3 + 2)] ==
                                    doctest::Approx(margins[0][static_cast<std::size_t>(a)]).epsilon(1e-9));
  for (int b = 0; b < 3; ++b) CHECK(consistent[static_cast<std::size_t>(b)] + consistent[static_cast<std::size_t>(3 + b)] ==
                                    doctest::Approx(margins[1][static_cast<std::size_t>(b)]).epsilon(1e-9));
  // The first row leans to option 0, the second to option 2, as in the start.
  CHECK(consistent[0] / consistent[2] > consistent[3] / consistent[5]);
}

TEST_CASE("block projection onto the margins: exact margins, non-negative, the closed form on a 2 x 2") {
  // Margins (0.5, 0.5) both ways: the tables are (0.5 - x, x; x, 0.5 - x), x in [0, 0.5], and with equal
  // variances the projection minimises (x + 0.05)^2 + (x + 0.02)^2 + (x - 0.05)^2 + (x - 0.08)^2: x = 0.015.
  const std::vector<double> p = ProjectOntoMargins({0.55, -0.02, 0.05, 0.42}, {1.0, 1.0, 1.0, 1.0}, {2, 2},
                                                   {{0.5, 0.5}, {0.5, 0.5}});
  const std::vector<double> expected = {0.485, 0.015, 0.015, 0.485};
  for (std::size_t c = 0; c < 4; ++c) CHECK(p[c] == doctest::Approx(expected[c]).epsilon(1e-9));
  // f = (0.6, -0.1, 0.1, 0.4): the unconstrained minimum is x = 0 (the bound): (0.5, 0, 0, 0.5).
  const std::vector<double> clipped = ProjectOntoMargins({0.6, -0.1, 0.1, 0.4}, {1.0, 1.0, 1.0, 1.0}, {2, 2},
                                                         {{0.5, 0.5}, {0.5, 0.5}});
  for (std::size_t c = 0; c < 4; ++c) CHECK(clipped[c] == doctest::Approx(c == 0 || c == 3 ? 0.5 : 0.0).epsilon(1e-9));
  // Consistent cells stay as they are, whatever their variances.
  const std::vector<double> same = ProjectOntoMargins({0.4, 0.1, 0.1, 0.4}, {1.0, 2.0, 3.0, 4.0}, {2, 2},
                                                      {{0.5, 0.5}, {0.5, 0.5}});
  for (std::size_t c = 0; c < 4; ++c) CHECK(same[c] == doctest::Approx(c == 0 || c == 3 ? 0.4 : 0.1).epsilon(1e-9));
  // 2 x 3 with unequal variances: non-negative, margins exact.
  const std::vector<double> wide = ProjectOntoMargins({0.30, -0.05, 0.12, 0.02, 0.25, 0.30}, {1e-4, 4e-4, 4e-4, 4e-4, 4e-4, 1e-4},
                                                      {2, 3}, {{0.4, 0.6}, {0.3, 0.25, 0.45}});
  for (double q : wide) CHECK(q >= 0.0);
  for (std::size_t r = 0; r < 2; ++r) CHECK(wide[3 * r] + wide[3 * r + 1] + wide[3 * r + 2] == doctest::Approx(r == 0 ? 0.4 : 0.6).epsilon(1e-9));
  for (std::size_t b = 0; b < 3; ++b) CHECK(wide[b] + wide[3 + b] == doctest::Approx(std::vector<double>{0.3, 0.25, 0.45}[b]).epsilon(1e-9));
}
