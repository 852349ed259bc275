// The tree's design (tree_design.h): level weights, every level kept, and the reason that names the choice.
#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "core/kinds/histogram/tree_design.h"

using namespace deniable;

TEST_CASE("tree design: weights sum to 1, every level keeps respondents, and the reason names the choice") {
  // 256 single cells: every declared bin is a leaf.
  std::vector<std::pair<int, int>> cells;
  for (int i = 0; i < 256; ++i) cells.emplace_back(i, i + 1);
  const TreeDesign design = ChooseTreeDesign(256, cells);
  double total = 0;
  for (double w : design.level_weights) {
    total += w;
    CHECK(w >= 0.5 / design.shape.height - 1e-12);
  }
  CHECK(total == doctest::Approx(1.0));
  CHECK(design.shape.Leaves() >= 256);
  CHECK(design.reason.find("fan-out " + std::to_string(design.shape.fanout)) == 0);
  // Leaves alone: one level (fan-out 16 over 256 leaves needs two), so the leaves get the most weight.
  CHECK(design.level_weights.back() == *std::max_element(design.level_weights.begin(), design.level_weights.end()));
}
