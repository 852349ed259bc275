// The exhaustive privacy audit of PMOUE on small blocks (privacy_audit.h, seed 002
// digest §4): a fixed split gives exactly sum e_j, a split that depends on the
// answer is caught.
#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "core/kinds/block/privacy_audit.h"

using namespace deniable;

TEST_CASE("block privacy audit: a fixed split gives exactly sum e_j; a split that depends on the answer is caught") {
  for (const auto& shares : {std::vector<double>{1.0, 1.0}, std::vector<double>{0.5, 2.5}, std::vector<double>{2.0, 0.3}}) {
    CHECK(WorstLogLikelihoodRatio({3, 2}, [&](const std::vector<int>&) { return shares; }) ==
          doctest::Approx(shares[0] + shares[1]).epsilon(1e-12));
  }
  // The canary: the attribute answered 0 gets the small share (digest section 4's counterexample, smaller).
  const double worst = WorstLogLikelihoodRatio({4, 2}, [](const std::vector<int>& x) {
    return x[0] == 0 ? std::vector<double>{0.5, 1.5} : std::vector<double>{1.5, 0.5};
  });
  MESSAGE("value-dependent split: worst log ratio " << worst << " against a claimed 2");
  CHECK(worst > 2.0 + 0.5);
}
