// A fixed-seed subset of the interval coverage benchmark (bench/coverage.cc):
// smooth, skewed and discrete answers through Square Wave (epsilon 1) at
// n = 3000, 10 surveys each. Every published statistic's estimate must lie
// inside its own interval, always; and the mean's, median's and quartiles'
// intervals must cover the respondents' own statistic in at least 8 of 10
// surveys (at a true coverage of 95%, P(at most 7 of 10) = 1.2%). The
// standard deviation, skewness and kurtosis are not held to it yet: their
// coverage is the open part of issue 10 (build/coverage measures it).
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "bench/coverage_shapes.h"
#include "core/common/seeded_random.h"
#include "core/kinds/numeric/numeric_results.h"
#include "core/survey/survey.h"

using nlohmann::json;
using namespace deniable;

TEST_CASE("numeric intervals: estimates inside their intervals, coverage on smooth, skewed and discrete answers") {
  for (const auto& shape : coverage::Shapes()) {
    if (shape.name != "normal" && shape.name != "chi_square_2" && shape.name != "ratings") continue;
    INFO(shape.name);
    const json definition = {{"format", kSurveyFormat}, {"id", "c"}, {"version", 1}, {"title", "c"},
                             {"questions", {{{"id", "x"}, {"text", "x"}, {"type", "numeric"},
                                             {"range", {shape.range.low, shape.range.high}},
                                             {"mechanism", {{"name", "square_wave"}, {"epsilon", 1}}}}}}};
    const Survey survey = *ParseSurvey(definition);
    const auto& kind = NumericKindOf(survey.questions[0]);
    std::map<std::string, int> covered;
    for (int seed = 1; seed <= 10; ++seed) {
      SeededRandom random(static_cast<std::uint64_t>(seed) * 7919u + 3000u);
      const auto answers = coverage::DrawAnswers(shape, 3000, random);
      NumericAggregate aggregate{0, *NumericHistogram::ForMechanism(kind.mechanism())};
      for (double answer : answers) REQUIRE(aggregate.AddValues(*kind.mechanism().Perturb(answer, random)).ok());
      const auto result = NumericResultToJson(kind, aggregate, NumericEstimateOptions{});
      REQUIRE(result.ok());
      CHECK((*result)["bootstrap"]["interval"] == "bias_aware");
      const auto truth = coverage::Truth(answers);
      for (const auto& [name, statistic] : (*result)["statistics"].items()) {
        const double low = statistic["low"].get<double>(), high = statistic["high"].get<double>();
        const double value = statistic["value"].get<double>();
        CHECK_MESSAGE(low <= value, name << " seed " << seed);
        CHECK_MESSAGE(value <= high, name << " seed " << seed);
        covered[name] += low <= truth.at(name) && truth.at(name) <= high ? 1 : 0;
      }
    }
    for (const char* name : {"mean", "median", "lower_quartile", "upper_quartile"}) {
      CHECK_MESSAGE(covered[name] >= 8, name << " covered " << covered[name] << " of 10");
    }
  }
}
