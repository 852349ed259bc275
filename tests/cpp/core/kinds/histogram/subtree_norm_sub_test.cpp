// Subtree Norm-Sub (subtree_norm_sub.h): each node's halves non-negative and summing to the node.
#include <doctest/doctest.h>

#include <vector>

#include "core/kinds/histogram/subtree_norm_sub.h"

using namespace deniable;

TEST_CASE("subtree Norm-Sub: each node's halves non-negative and summing to the node, top down; padding stays empty") {
  // Halves 0.4 | 0.6 kept; 0.5, -0.1 -> 0.4, 0 within the left half (Norm-Sub over all four gave 0.467, 0, 0.267, 0.267:
  // the right half lost mass to the clipped cell on the left).
  const std::vector<double> four = SubtreeNormSub({0.5, -0.1, 0.3, 0.3}, 1.0);
  const std::vector<double> expected = {0.4, 0.0, 0.3, 0.3};
  for (std::size_t i = 0; i < 4; ++i) CHECK(four[i] == doctest::Approx(expected[i]));
  // Three cells under a tree of four: the halves 1.1 | -0.1 -> 1, 0; then 0.2, 0.9 -> 0.15, 0.85.
  const std::vector<double> three = SubtreeNormSub({0.2, 0.9, -0.1}, 1.0);
  REQUIRE(three.size() == 3);
  CHECK(three[0] == doctest::Approx(0.15));
  CHECK(three[1] == doctest::Approx(0.85));
  CHECK(three[2] == 0.0);
  // Consistent non-negative input comes back unchanged.
  const std::vector<double> kept = SubtreeNormSub({0.1, 0.2, 0.3, 0.15, 0.25}, 1.0);
  const std::vector<double> same = {0.1, 0.2, 0.3, 0.15, 0.25};
  for (std::size_t i = 0; i < 5; ++i) CHECK(kept[i] == doctest::Approx(same[i]));
}
