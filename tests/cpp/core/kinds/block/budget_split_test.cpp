// A respondent's split of the block's budget (budget_split.h, seed 002): from
// their choices only, proportional to weights within bounds, summing to m e.
#include <doctest/doctest.h>

#include <cmath>
#include <numeric>
#include <vector>

#include "core/kinds/block/budget_split.h"
#include "tests/cpp/support/block_population.h"

using namespace deniable;
using nlohmann::json;
using namespace deniable::testing;

TEST_CASE("block split: from choices only, proportional to weights within bounds, summing to m e") {
  const BlockDefinition block = Block({3, 4, 2}, 1.0);
  BlockChoices choices{{true, true, true}, {0.5, 1.0, 2.0}};
  std::vector<double> shares = SplitBudget(block, choices);
  CHECK(shares[0] + shares[1] + shares[2] == doctest::Approx(3.0).epsilon(1e-12));
  CHECK(shares[0] == doctest::Approx(3.0 * 0.5 / 3.5));
  CHECK(shares[2] == doctest::Approx(3.0 * 2.0 / 3.5));
  // Unanswered attributes get nothing; the equal split is the default.
  choices = {{true, false, true}, {1.0, 1.0, 1.0}};
  shares = SplitBudget(block, choices);
  CHECK(shares == std::vector<double>{1.0, 0.0, 1.0});
  // Bounds [0.25, 4] hold: weights 0.01 and 100 over two attributes give 0.25 and 1.75.
  choices = {{true, true, false}, {0.01, 100.0, 1.0}};
  shares = SplitBudget(block, choices);
  CHECK(shares[0] == doctest::Approx(0.25));
  CHECK(shares[1] == doctest::Approx(1.75));
  // Narrow bounds clamp both ends and still sum to m e.
  const BlockDefinition narrow = Block({3, 4, 2}, 1.0, {0.8, 1.1});
  shares = SplitBudget(narrow, {{true, true, true}, {0.5, 2.0, 2.0}});
  CHECK(shares[0] == doctest::Approx(0.8));
  CHECK(shares[1] + shares[2] == doctest::Approx(2.2));
  // The kind's privacy for choices, before any answer.
  auto survey = ParseSurvey(Definition(BlockQuestion({3, 4, 2}, 1.0)));
  REQUIRE(survey.ok());
  auto privacy = survey->questions[0].kind->PrivacyOfChoices(
      {{"answered", {"age", "education"}}, {"sensitivity", {{"age", "more_private"}}}});
  REQUIRE(privacy.ok());
  CHECK((*privacy)["epsilon_total"] == 2.0);
  CHECK((*privacy)["attributes"][0]["epsilon"].get<double>() == doctest::Approx(2.0 * 0.5 / 1.5));
  CHECK((*privacy)["attributes"][1]["epsilon"].is_null());
  CHECK(survey->questions[0].kind->PrivacyOfChoices({{"answered", {"nope"}}}).error() ==
        "answered: no attribute \"nope\" in this block");
}
