// The consumers' boundaries merged exactly into fine cells (fine_partition.h), with the digest's vectors (seed 000,
// section 6.2).
#include <doctest/doctest.h>

#include "core/kinds/histogram/fine_partition.h"

using namespace deniable;

namespace {

FinePartition Folds(NumericRange range, std::vector<int> folds) {
  std::vector<std::vector<RangeFraction>> consumers;
  for (int k : folds) consumers.push_back(EqualBinBoundaries(k));
  return *FinePartition::Merge(range, consumers);
}

}  // namespace

TEST_CASE("fine partition: {3,5,7}-fold gives 13 cells, {3,5,7,10,15}-fold 26, never a sliver") {
  CHECK(Folds({0, 1}, {3, 5, 7}).cells() == 13);
  CHECK(Folds({0, 1}, {3, 5, 7, 10, 15}).cells() == 26);
  // A range whose thirds are not exact doubles still merges 3-fold with 6-fold into 6 cells.
  CHECK(Folds({0.1, 0.7}, {3, 6}).cells() == 6);
  CHECK(Folds({0, 1}, {4096}).cells() == 4096);
  CHECK(FinePartition::Merge({0, 1}, {EqualBinBoundaries(4096), EqualBinBoundaries(3)}).error() ==
        "the histograms' boundaries together make 4098 fine cells; at most 4096 are allowed");
}

TEST_CASE("fine partition: half-open cells, b in the last; a consumer's bins are runs of fine cells") {
  const FinePartition partition = Folds({0, 100}, {2, 4});
  REQUIRE(partition.cells() == 4);
  CHECK(partition.CellOf(50) == 2);  // fine cell 3 (1-based): [50, 75)
  CHECK(partition.CellOf(49.999) == 1);
  CHECK(partition.CellOf(100) == 3);  // b in the last cell
  CHECK(partition.CellOf(0) == 0);
  CHECK(partition.CellOf(-5) == 0);  // clamped
  CHECK(partition.CellOf(150) == 3);
  const std::vector<int> two = partition.BinStarts(EqualBinBoundaries(2));
  CHECK(two == std::vector<int>{0, 2, 4});  // 50 is in 2-fold bin 2 (cells 2..3)
  const std::vector<int> four = partition.BinStarts(EqualBinBoundaries(4));
  CHECK(four == std::vector<int>{0, 1, 2, 3, 4});  // and in 4-fold bin 3
}

TEST_CASE("fine partition: explicit edges become exact fractions of the range") {
  CHECK(BoundaryFraction(2.5, {0, 100}).value() == RangeFraction{1, 40});
  CHECK(BoundaryFraction(0.3, {0, 1}).value() == RangeFraction{3, 10});
  // 10/3 typed as a double equals the 3-fold boundary of [0, 10] exactly, so it adds no cell.
  const RangeFraction third = BoundaryFraction(10.0 / 3.0, {0, 10}).value();
  CHECK(third == RangeFraction{1, 3});
  const auto merged = FinePartition::Merge({0, 10}, {EqualBinBoundaries(3), {{0, 1}, third, {1, 1}}});
  CHECK(merged->cells() == 3);
  CHECK(BoundaryFraction(11, {0, 10}).error() == "11 is outside the range");
}
