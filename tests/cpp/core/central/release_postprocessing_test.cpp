// Post-processing of a release (release_postprocessing.h): clamp, round and
// Norm-Sub consistency to the release's own total.
#include <doctest/doctest.h>

#include <vector>

#include "core/central/release_postprocessing.h"

using namespace deniable;

TEST_CASE("central: post-processing is separate: clamp, round, and Norm-Sub consistency to the release's own total") {
  const std::vector<double> released = {-2.5, 3.4, 10.6, 0.2};
  CHECK(PostProcess(released, {}) == released);
  CHECK(PostProcess(released, {true, false, false}) == std::vector<double>{0.0, 3.4, 10.6, 0.2});
  CHECK(PostProcess(released, {true, true, false}) == std::vector<double>{0.0, 3.0, 11.0, 0.0});
  const auto consistent = PostProcess(released, {false, false, true});
  double total = 0.0;
  for (double value : consistent) {
    CHECK(value >= 0.0);
    total += value;
  }
  CHECK(total == doctest::Approx(11.7));
}
