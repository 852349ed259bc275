// The privacy levels of an answer range (level_partition.h): half-open intervals
// with the last closed, levels ordered by strictness, ties merged.
#include <doctest/doctest.h>

#include <vector>

#include "core/numeric/levels/level_partition.h"
#include "core/numeric/levels/levels_mechanism.h"

using namespace deniable;

TEST_CASE("levels: intervals are half-open with the last closed; levels ordered by strictness; ties merged") {
  auto made = CreateLevels({0.0, 100.0}, {20.0, 50.0, 80.0}, {1.0, 3.0, 2.0, 1.0});
  REQUIRE(made.ok());
  const LevelPartition& partition = (*made)->partition();
  CHECK(partition.intervals() == 4);
  CHECK(partition.levels() == 3);  // epsilons 3, 2, 1: the two ends share the strictest
  CHECK(partition.level_epsilons() == std::vector<double>{3.0, 2.0, 1.0});
  CHECK(partition.IntervalOf(0.0) == 0);
  CHECK(partition.IntervalOf(19.999) == 0);
  CHECK(partition.IntervalOf(20.0) == 1);  // a boundary belongs to the interval above it
  CHECK(partition.IntervalOf(80.0) == 3);
  CHECK(partition.IntervalOf(100.0) == 3);  // the last interval is closed
  CHECK(partition.LevelOf(10.0) == 2);
  CHECK(partition.LevelOf(30.0) == 0);
  CHECK(partition.LevelOf(60.0) == 1);
  CHECK(partition.LevelOf(90.0) == 2);
  CHECK(partition.Normalise(0.0) == -1.0);
  CHECK(partition.Normalise(100.0) == 1.0);
  CHECK(partition.Normalise(50.0) == 0.0);
  CHECK(partition.LevelSpans(2).size() == 2);
}
