// The rounds a model's results list (model_series.h): at most 200 for the chart,
// and the full series paged on request.
#include <doctest/doctest.h>

#include <vector>

#include "core/common/seeded_random.h"
#include "core/kinds/linear_regression/model_rounds.h"
#include "core/kinds/linear_regression/model_series.h"
#include "core/survey/aggregate.h"
#include "core/survey/report.h"
#include "core/survey/results.h"
#include "core/survey/survey.h"
#include "tests/cpp/support/model_survey.h"

using namespace deniable;
using nlohmann::json;
using namespace deniable::testing;

TEST_CASE("regression: results list at most 200 rounds for the chart, and page the full series on request") {
  CHECK(SelectRounds(0, {}).steps.empty());
  CHECK(SelectRounds(150, {}).steps.size() == 150);
  const SeriesSelection chart = SelectRounds(100000, {});
  CHECK(chart.steps.size() <= kChartRounds + 1);
  CHECK(chart.steps.front() == 0);
  CHECK(chart.steps.back() == 99999);
  CHECK(chart.shown.at("every") == 500);
  const SeriesSelection page = SelectRounds(2500, {true, 2001});
  CHECK(page.steps.size() == 500);
  CHECK(page.steps.front() == 2000);
  CHECK(page.shown.at("next_from").is_null());
  CHECK(SelectRounds(2500, {true, 1}).shown.at("next_from") == 1001);
  CHECK(ReadSeriesRequest(json{{"rounds", "every"}}).error().rfind("rounds must be \"chart\"", 0) == 0);
  CHECK(ReadSeriesRequest(json{{"rounds_from", "3"}}).error() == "rounds_from pages the full series: it needs rounds=all");
  CHECK(ReadSeriesRequest(json{{"rounds", "all"}, {"rounds_from", "0"}}).error().rfind("rounds_from must be", 0) == 0);
  // Through the kind: 1,000 rounds of batch 1 list 200 evenly spaced ones, the last, and round 0 first.
  auto survey = ParseSurvey(ModelSurvey(1.0, 1, 1.0, 1.0, 2));
  REQUIRE(survey.ok());
  const auto& kind = *survey->questions[3].kind;
  auto aggregate = kind.NewAggregate();
  SeededRandom random(3);
  for (long long round = 1; round <= 1000; ++round) aggregate->Add(GradientResponse(round, 0, UniformUnit(random) - 0.5));
  const auto result = kind.Estimate(*aggregate, json::object(), {});
  REQUIRE(result.ok());
  CHECK(result->at("rounds").size() == 202);  // round 0, rounds 1, 6, ..., 996, and 1000
  CHECK(result->at("rounds").front().at("round") == 0);
  CHECK(result->at("rounds").back().at("round") == 1000);
  CHECK(result->at("rounds_shown").at("every") == 5);
  const auto all = kind.Estimate(*aggregate, json{{"rounds", "all"}, {"rounds_from", "901"}}, {});
  REQUIRE(all.ok());
  CHECK(all->at("rounds").size() == 100);
  CHECK(all->at("rounds").front().at("round") == 901);
  // The chart's averages equal those of the full listing for the same round.
  const auto full = kind.Estimate(*aggregate, json{{"rounds", "all"}}, {});
  CHECK(result->at("rounds")[2].at("round") == 6);
  CHECK(full->at("rounds")[6].at("average_raw") == result->at("rounds")[2].at("average_raw"));
}
