// Norm-Sub (norm_sub.h) with exact arithmetic.
#include <doctest/doctest.h>

#include "core/frequency/norm_sub.h"

using namespace deniable;

TEST_CASE("Norm-Sub gives the non-negative shift that sums to the total") {
  const auto result = NormSub({0.6, 0.5, -0.1, -0.2}, 1.0);
  // Keeping the top two: delta = (1 - 1.1) / 2 = -0.05.
  CHECK(result[0] == doctest::Approx(0.55));
  CHECK(result[1] == doctest::Approx(0.45));
  CHECK(result[2] == 0.0);
  CHECK(result[3] == 0.0);
  const auto already = NormSub({0.2, 0.3, 0.5}, 1.0);
  CHECK(already[0] == doctest::Approx(0.2));
  const auto shifted = NormSub({0.1, 0.1}, 1.0);
  CHECK(shifted[0] == doctest::Approx(0.5));
  const auto all_negative = NormSub({-0.5, -0.2}, 1.0);
  CHECK(all_negative[0] == doctest::Approx(0.35));
  CHECK(all_negative[1] == doctest::Approx(0.65));
}
