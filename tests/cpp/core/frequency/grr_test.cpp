// GRR (grr.h): its probabilities, exactly.
#include <doctest/doctest.h>

#include <cmath>

#include "core/frequency/categorical_mechanism.h"
#include "tests/cpp/support/make_categorical.h"

using namespace deniable;
using deniable::testing::Make;

TEST_CASE("GRR probabilities are e^eps/(e^eps+k-1) and 1/(e^eps+k-1)") {
  auto grr = Make(CategoricalKind::kGrr, 4, 1.0);
  const double e = std::exp(1.0);
  CHECK(grr->probabilities().p == doctest::Approx(e / (e + 3)).epsilon(1e-15));
  CHECK(grr->probabilities().q == doctest::Approx(1 / (e + 3)).epsilon(1e-15));
  CHECK(std::log(grr->probabilities().p / grr->probabilities().q) == doctest::Approx(1.0).epsilon(1e-12));
}
