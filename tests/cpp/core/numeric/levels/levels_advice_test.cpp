// The levels advisor (levels_advice.h): the mean's error at equal exact epsilon,
// from the same variance formulas.
#include <doctest/doctest.h>

#include <cmath>
#include <nlohmann/json.hpp>

#include "core/numeric/levels/levels_advice.h"
#include "tests/cpp/support/paper_levels.h"

using namespace deniable;
using nlohmann::json;
using namespace deniable::testing;

TEST_CASE("levels advisor: the mean's error at equal exact epsilon, from the same variance formulas") {
  const auto levels = PaperLevels(1.0);
  const auto advice = levels->Advice(10000);
  REQUIRE(advice.has_value());
  const json& rows = (*advice)["rows"];
  REQUIRE(rows.size() == 6);
  CHECK((*advice)["epsilon"].get<double>() == doctest::Approx(8.067).epsilon(1e-3));
  // This question's row: HierA's per-respondent variance (digest §5.6 a: 1.276 for uniform answers, base 1), plus
  // the answers' own for the population (uniform on [-1, 1]: 1/3).
  CHECK(rows[0]["mechanism"] == "levels");
  CHECK(rows[0]["std_error"].get<double>() == doctest::Approx(std::sqrt((1.276 + 1.0 / 3.0) / 10000)).epsilon(2e-3));
  // The bounded variant rescaled to the same exact epsilon.
  CHECK(rows[1]["mechanism"] == "levels_bounded");
  CHECK(rows[1]["epsilon"].get<double>() == doctest::Approx(*levels->epsilon()).epsilon(1e-6));
  // Piecewise at the exact epsilon: Var = t^2/(s-1) + (s+3)/(3(s-1)^2), s = e^(eps/2), averaged over t ~ U[-1, 1].
  const double s = std::exp(*levels->epsilon() / 2.0);
  const double piecewise = (1.0 / 3.0) / (s - 1.0) + (s + 3.0) / (3.0 * (s - 1.0) * (s - 1.0));
  CHECK(rows[2]["mechanism"] == "piecewise");
  CHECK(rows[2]["std_error"].get<double>() == doctest::Approx(std::sqrt((piecewise + 1.0 / 3.0) / 10000)).epsilon(1e-4));
  CHECK(rows[5]["mechanism"] == "square_wave");
  CHECK(rows[5]["std_error"].is_number());
  // At its true epsilon the paper's mechanism is far from the best: Piecewise at 8.07 wins.
  CHECK((*advice)["best"] != "levels");
  // The rescaled budgets give exactly the target epsilon.
  const auto budgets = BudgetsForExactEpsilon(*levels, LevelsVariant::kBounded, 3.0);
  REQUIRE(budgets.has_value());
  auto rescaled = CreateLevels({-1.0, 1.0}, {-0.6, -0.2, 0.2, 0.6}, *budgets, LevelsVariant::kBounded);
  CHECK(*(*rescaled)->epsilon() == doctest::Approx(3.0).epsilon(1e-6));
}
