// OUE and SUE (unary_encoding.h): their probabilities, exactly, and their epsilon.
#include <doctest/doctest.h>

#include <cmath>

#include "core/frequency/categorical_mechanism.h"
#include "tests/cpp/support/make_categorical.h"

using namespace deniable;
using deniable::testing::Make;

TEST_CASE("OUE has p = 1/2, q = 1/(e^eps+1); SUE has p = e^(eps/2)/(e^(eps/2)+1), q = 1-p") {
  auto oue = Make(CategoricalKind::kOue, 5, 2.0);
  CHECK(oue->probabilities().p == 0.5);
  CHECK(oue->probabilities().q == doctest::Approx(1 / (std::exp(2.0) + 1)).epsilon(1e-15));
  auto sue = Make(CategoricalKind::kSue, 5, 2.0);
  CHECK(sue->probabilities().p == doctest::Approx(std::exp(1.0) / (std::exp(1.0) + 1)).epsilon(1e-15));
  CHECK(sue->probabilities().q == doctest::Approx(1 - sue->probabilities().p).epsilon(1e-15));
  // Both are eps-LDP: p(1-q) / (q(1-p)) = e^eps.
  for (const auto* m : {oue.get(), sue.get()}) {
    const auto [p, q] = m->probabilities();
    CHECK(std::log(p * (1 - q) / (q * (1 - p))) == doctest::Approx(2.0).epsilon(1e-12));
  }
}
