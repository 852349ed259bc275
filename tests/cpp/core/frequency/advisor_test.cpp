// The frequency advisor's rule (advisor.h) and its messages.
#include <doctest/doctest.h>

#include "core/frequency/advisor.h"
#include "core/frequency/frequency_estimator.h"

using namespace deniable;

TEST_CASE("the advisor recommends GRR exactly when k < 3e^eps + 2") {
  // At eps = 1, 3e + 2 = 10.15: GRR for k <= 10, OUE from k = 11.
  CHECK(Advise(10, 1.0, 1000)->recommended == "grr");
  CHECK(Advise(11, 1.0, 1000)->recommended == "oue");
  CHECK(Advise(2, 0.5, 1000)->recommended == "grr");
  CHECK(Advise(64, 2.0, 1000)->recommended == "oue");  // 3e^2 + 2 = 24.2
  auto advice = *Advise(5, 1.0, 2500);
  CHECK(advice.mechanisms.size() == 5);  // grr, oue, sue, negative, pure negative
  CHECK_FALSE(advice.mechanisms.back().epsilon.has_value());
  CHECK(advice.mechanisms[0].ci_half_width == doctest::Approx(kZ95 * advice.mechanisms[0].std_error));
  CHECK(Advise(1, 1.0, 10).error() == "options must be between 2 and 4096, but is 1");
  CHECK(Advise(3, 0.0, 10).error() == "epsilon must be finite and in [0.01, 30], but is 0");
  CHECK(Advise(3, 1.0, 0).error() == "respondents must be between 1 and 2147483647, but is 0");
}
