// Portable exp, expm1 and log (portable_math.h): accuracy against std, and exact anchors.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>

#include "core/common/portable_math.h"
#include "core/common/seeded_random.h"

using namespace deniable;

TEST_CASE("numeric baselines: portable exp, expm1 and log are within 1e-15 of std, exact at the anchors") {
  // Bit-identity with WebAssembly is what they are for (checked outside these
  // tests by running the same seeds under Node); here: accuracy and anchors.
  SeededRandom random(3);
  double worst_exp = 0.0, worst_expm1 = 0.0, worst_log = 0.0;
  for (int i = 0; i < 100000; ++i) {
    const double x = (UniformUnit(random) - 0.5) * 80.0;
    const double tiny = (UniformUnit(random) - 0.5) * 1e-3;
    const double y = std::ldexp(UniformUnit(random) + 0x1p-53, static_cast<int>(UniformBelow(random, 200)) - 100);
    worst_exp = std::max(worst_exp, std::fabs(PortableExp(x) / std::exp(x) - 1));
    worst_expm1 = std::max(worst_expm1, std::fabs(PortableExpm1(x) / std::expm1(x) - 1));
    worst_expm1 = std::max(worst_expm1, std::fabs(PortableExpm1(tiny) / std::expm1(tiny) - 1));
    if (y != 1.0) worst_log = std::max(worst_log, std::fabs(PortableLog(y) / std::log(y) - 1));
  }
  MESSAGE("worst relative differences: exp " << worst_exp << ", expm1 " << worst_expm1 << ", log " << worst_log);
  CHECK(worst_exp < 1e-15);
  CHECK(worst_expm1 < 1e-15);
  CHECK(worst_log < 1e-15);
  CHECK(PortableExpm1(0.0) == 0.0);
  CHECK(PortableExpm1(1e-300) == 1e-300);
  CHECK(PortableExp(0.0) == 1.0);
  CHECK(PortableLog(1.0) == 0.0);
  CHECK(PortableLog(0.5) == -0.5 * PortableLog(4.0));
  CHECK(PortableLog(0x1p-53) == doctest::Approx(-53 * std::log(2.0)).epsilon(1e-16));
}
