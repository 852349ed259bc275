// What a fit invents in an emptied tail (empty_tails.h): the split where the fit has 20% beyond, the most any
// re-estimate from the emptied world puts there, and the CDF band widened by exactly that beyond the split.
#include <doctest/doctest.h>

#include <vector>

#include "core/kinds/numeric/empty_tails.h"

using namespace deniable;

namespace {

// Ten cells on [0, 10], each reporting itself.
TransitionMatrix Identity10() {
  std::vector<double> columns(100, 0.0);
  for (int i = 0; i < 10; ++i) columns[static_cast<std::size_t>(i * 10 + i)] = 1.0;
  return TransitionMatrix::FromColumns({0, 10}, 10, {0, 10}, 10, columns).value();
}

}  // namespace

TEST_CASE("empty tails: the invented mass is the most any re-estimate from the emptied world puts in the tail") {
  const GridDistribution fitted{{0, 10}, std::vector<double>(10, 0.1)};
  // Every re-estimate: 0.025 in each of the two outer cells on both sides (0.05 per side), the rest even.
  const std::vector<double> reestimate = {0.025, 0.025, 0.15, 0.15, 0.15, 0.15, 0.15, 0.15, 0.025, 0.025};
  int calls = 0;
  const Reestimator fixed = [&](const std::vector<double>&, int) -> Result<std::vector<double>> {
    ++calls;
    return reestimate;
  };
  const auto tails = TestEmptyTails(fitted, Identity10(), 100, 1, fixed, {});
  REQUIRE(tails.ok());
  // 20% above 8 (cells 8 and 9) and below 2 (cells 0 and 1).
  REQUIRE(tails->above.has_value());
  REQUIRE(tails->below.has_value());
  CHECK(tails->above->split == 8.0);
  CHECK(tails->below->split == 2.0);
  CHECK(tails->above->invented == doctest::Approx(0.05));
  CHECK(tails->below->invented == doctest::Approx(0.05));
  CHECK(calls == 2 * kEmptyTailReplicates);
}

TEST_CASE("empty tails: a failed re-estimate invents everything, and a pile at an end has no tail to empty") {
  // 60% in the first cell: no split leaves at most 20% below; 20% in the last two cells above.
  const GridDistribution fitted{{0, 10}, {0.6, 0.05, 0.05, 0.05, 0.05, 0.0, 0.0, 0.0, 0.1, 0.1}};
  const Reestimator failing = [](const std::vector<double>&, int) -> Result<std::vector<double>> {
    return MakeError("did not converge");
  };
  const auto tails = TestEmptyTails(fitted, Identity10(), 100, 1, failing, {});
  REQUIRE(tails.ok());
  CHECK_FALSE(tails->below.has_value());
  REQUIRE(tails->above.has_value());
  CHECK(tails->above->split == 5.0);  // cells 5-9 hold 0.2
  CHECK(tails->above->invented == 1.0);
}

TEST_CASE("empty tails: the CDF band reaches F + invented beyond the upper split and F - invented below the lower") {
  const std::vector<double> points = {1.0, 5.0, 9.0};
  const std::vector<double> cdf = {0.1, 0.5, 0.95};
  const BootstrapBand band{{0.05, 0.45, 0.9}, {0.15, 0.55, 0.97}};
  EmptyTails tails;
  tails.above = InventedTail{8.0, 0.04};
  tails.below = InventedTail{2.0, 0.2};
  const BootstrapBand widened = WidenCdfBandForEmptyTails(points, band, cdf, tails);
  CHECK(widened.high[2] == doctest::Approx(0.99));  // 0.95 + 0.04
  CHECK(widened.low[2] == 0.9);
  CHECK(widened.low[0] == 0.0);  // 0.1 - 0.2, at least 0
  CHECK(widened.high[0] == 0.15);
  CHECK(widened.low[1] == 0.45);  // between the splits the bootstrap band stands
  CHECK(widened.high[1] == 0.55);
  // Never above 1, and never narrower than the bootstrap band.
  tails.above = InventedTail{8.0, 0.5};
  CHECK(WidenCdfBandForEmptyTails(points, band, cdf, tails).high[2] == 1.0);
  tails.above = InventedTail{8.0, 0.0};
  CHECK(WidenCdfBandForEmptyTails(points, band, cdf, tails).high[2] == 0.97);
}
