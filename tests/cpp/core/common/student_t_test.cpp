// Student's t quantiles (student_t.h).
#include <doctest/doctest.h>

#include "core/common/student_t.h"

using namespace deniable;

TEST_CASE("regression: Student's t two-sided 95% quantiles") {
  CHECK(StudentTTwoSidedQuantile(0.95, 1) == doctest::Approx(12.7062).epsilon(1e-5));
  CHECK(StudentTTwoSidedQuantile(0.95, 2) == doctest::Approx(4.30265).epsilon(1e-5));
  CHECK(StudentTTwoSidedQuantile(0.95, 7) == doctest::Approx(2.36462).epsilon(1e-5));
  CHECK(StudentTTwoSidedQuantile(0.95, 30) == doctest::Approx(2.04227).epsilon(1e-5));
  CHECK(StudentTTwoSidedQuantile(0.99, 10) == doctest::Approx(3.16927).epsilon(1e-5));
}
