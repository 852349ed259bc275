// A block's definition (block_definition.h, seed 002): valid blocks parse, and
// errors name the field.
#include <doctest/doctest.h>

#include <string>
#include <nlohmann/json.hpp>

#include "core/kinds/block/block_definition.h"
#include "tests/cpp/support/block_population.h"

using namespace deniable;
using nlohmann::json;
using namespace deniable::testing;

TEST_CASE("block definition: valid blocks parse; errors name the field") {
  CHECK(ParseError(BlockQuestion({3, 4}, 1.0)) == "");
  CHECK(ParseError(BlockQuestion({3}, 1.0)) == "questions[0].attributes: must be an array of 2 to 12 attributes");
  CHECK(ParseError(BlockQuestion({3, 4}, 0.0)).find("questions[0].mechanism.epsilon_per_attribute") == 0);
  CHECK(ParseError(BlockQuestion({3, 4}, 1.0, {1.5, 4})) ==
        "questions[0].mechanism.share_bounds: must satisfy 0 < low <= 1 <= high <= 12 (the equal split must fit), but "
        "is [1.5,4]");
  CHECK(ParseError(BlockQuestion({3, 4}, 20.0, {0.25, 4})).find("questions[0].mechanism.share_bounds: the largest share") ==
        0);
  // Without bounds, the default [0.25, 4] narrows to keep shares within 30: [0.25, 1.5] at e = 20.
  auto high_epsilon = ParseSurvey(Definition(BlockQuestion({3, 4}, 20.0)));
  REQUIRE(high_epsilon.ok());
  CHECK(BlockKindOf(high_epsilon->questions[0]).block().bounds.high == doctest::Approx(1.5));
  json duplicate = BlockQuestion({3, 4}, 1.0);
  duplicate["attributes"][1]["id"] = "age";
  CHECK(ParseError(duplicate) == "questions[0].attributes[1].id: duplicate attribute id \"age\"");
  json too_many_options = BlockQuestion({3, 65}, 1.0);
  CHECK(ParseError(too_many_options) == "questions[0].attributes[1].options: must be an array of 2 to 64 option labels");
  json bad_name = BlockQuestion({3, 4}, 1.0);
  bad_name["mechanism"]["name"] = "oue";
  CHECK(ParseError(bad_name) == "questions[0].mechanism.name: must be \"pmoue\", but is \"oue\"");
  // The default joint order falls to what the aggregate's cap allows, and an explicit one beyond it is refused.
  auto wide = ParseSurvey(Definition(BlockQuestion({16, 16, 16, 16, 16, 16}, 1.0)));
  REQUIRE(wide.ok());
  CHECK(BlockKindOf(wide->questions[0]).block().joint_order == 3);
  CHECK(AggregateCells({16, 16, 16, 16, 16, 16}, 3) <= kMaxAggregateCells);
  json order = BlockQuestion({16, 16, 16, 16, 16, 16}, 1.0);
  order["joint_order"] = 5;
  CHECK(ParseError(order).find("questions[0].joint_order: 5 needs an aggregate of") == 0);
  // The canonical form parses to the same definition.
  auto survey = ParseSurvey(Definition(BlockQuestion({3, 4}, 1.0)));
  REQUIRE(survey.ok());
  auto again = ParseSurvey(SurveyToJson(*survey));
  REQUIRE(again.ok());
  CHECK(SurveyToJson(*again) == SurveyToJson(*survey));
  CHECK(survey->questions[0].epsilon() == doctest::Approx(2.0));
}
