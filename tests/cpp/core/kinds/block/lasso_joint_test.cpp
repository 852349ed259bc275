// The paper's LASSO joint (lasso_joint.h, seed 002 Situation 1): it sees only
// the marginals; the default joint estimator sees the dependence.
#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "core/kinds/block/joint_estimator.h"
#include "core/kinds/block/lasso_joint.h"
#include "tests/cpp/support/block_population.h"

using namespace deniable;
using nlohmann::json;
using namespace deniable::testing;

TEST_CASE("block LASSO (paper mode) sees only the marginals; the default joint estimator sees the dependence") {
  // Two populations with the same marginals: the dependent joint of age x income, and the product of its margins.
  const BlockDefinition block = Block({3, 4}, 4.0);
  std::vector<double> dependent(12, 0.0);
  const std::vector<double> three = DependentJoint();
  for (std::size_t c = 0; c < 12; ++c) dependent[c] = three[2 * c] + three[2 * c + 1];
  std::vector<double> rows(3, 0.0), columns(4, 0.0), independent(12);
  for (std::size_t c = 0; c < 12; ++c) {
    rows[c / 4] += dependent[c];
    columns[c % 4] += dependent[c];
  }
  for (std::size_t c = 0; c < 12; ++c) independent[c] = rows[c / 4] * columns[c % 4];
  auto distance = [](const std::vector<double>& a, const std::vector<double>& b) {
    double sum = 0.0;
    for (std::size_t i = 0; i < a.size(); ++i) sum += std::abs(a[i] - b[i]);
    return sum / 2.0;
  };
  std::vector<std::vector<double>> lasso, product;
  for (const auto* truth : {&dependent, &independent}) {
    const Population population = Simulate(block, *truth, 100000, 0.0, 0.0, 77);
    const JointCounts by_lasso = EstimateJointByLasso(population.aggregate, 0b11u, 4.0);
    const JointCounts by_default = EstimateJoint(population.aggregate, 0b11u);
    CHECK(by_lasso.variance.empty());  // no interval
    std::vector<double> a, b;
    for (std::size_t c = 0; c < 12; ++c) {
      a.push_back(by_lasso.count[c] / static_cast<double>(by_lasso.n));
      b.push_back(by_default.count[c] / static_cast<double>(by_default.n));
    }
    // The LASSO's marginals are the reports' (within sampling error).
    std::vector<double> lasso_rows(3, 0.0);
    for (std::size_t c = 0; c < 12; ++c) lasso_rows[c / 4] += a[c];
    for (std::size_t r = 0; r < 3; ++r) CHECK(lasso_rows[r] == doctest::Approx(rows[r]).epsilon(0.05));
    MESSAGE("truth " << std::string(truth == &dependent ? "dependent" : "independent") << ": LASSO off by " << distance(a, *truth)
                     << ", default off by " << distance(b, *truth));
    CHECK(distance(b, *truth) < 0.03);
    lasso.push_back(a);
    product.push_back(b);
  }
  MESSAGE("between the two populations: LASSO outputs differ by " << distance(lasso[0], lasso[1])
                                                                   << ", default outputs by " << distance(product[0], product[1]));
  // The truths differ by this much; the default estimator sees it, the LASSO does not.
  const double apart = distance(dependent, independent);
  CHECK(apart > 0.2);
  CHECK(distance(product[0], product[1]) > apart - 0.06);
  CHECK(distance(lasso[0], lasso[1]) < 0.05);
}
