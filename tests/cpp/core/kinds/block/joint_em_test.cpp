// A block's EM joint (joint_em.h): closer to the truth than the Norm-Sub of the
// unbiased joint, at small and large n.
#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "core/frequency/norm_sub.h"
#include "core/kinds/block/block_marginals.h"
#include "core/kinds/block/cross_tab.h"
#include "core/kinds/block/joint_em.h"
#include "core/kinds/block/joint_estimator.h"
#include "tests/cpp/support/block_population.h"

using namespace deniable;
using nlohmann::json;
using namespace deniable::testing;

TEST_CASE("block EM joint: closer to the truth than the Norm-Sub of the unbiased joint, at small and large n") {
  const BlockDefinition block = Block({3, 4, 2}, 2.0, {0.05, 3.0});
  const std::vector<double> joint = DependentJoint();
  auto distance = [](const std::vector<double>& a, const std::vector<double>& b) {
    double sum = 0.0;
    for (std::size_t i = 0; i < a.size(); ++i) sum += std::abs(a[i] - b[i]);
    return sum / 2.0;
  };
  for (std::int64_t n : {1000, 100000}) {
    const Population population = Simulate(block, joint, n, 0.0, 0.0, 55);
    const std::vector<std::vector<double>> margins = ConsistentMargins(population.aggregate, 3, 2.0);
    std::vector<double> truth;
    for (auto c : population.joint_all) truth.push_back(static_cast<double>(c) / static_cast<double>(n));
    auto table = EstimateCrossTab(population.aggregate, block, 0b111u, CrossTabOptions{}, margins);
    REQUIRE(table.ok());
    // The Norm-Sub of the unbiased estimate, for comparison.
    std::vector<double> unbiased = table->frequency;
    const std::vector<double> norm_sub = NormSub(unbiased, 1.0);
    MESSAGE("n = " << n << ": EM joint off by " << distance(table->consistent, truth) << ", Norm-Sub of the unbiased "
                   << distance(norm_sub, truth));
    CHECK(distance(table->consistent, truth) < distance(norm_sub, truth));
    // The unbiased estimate's expected AVD is about sum_cells sqrt(2/pi) SE / 2; the EM joint stays within twice it.
    double expected = 0.0;
    for (double se : table->std_error) expected += std::sqrt(2.0 / M_PI) * se / 2.0;
    CHECK(distance(table->consistent, truth) < 2.0 * expected);
  }
}
