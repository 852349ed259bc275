// A numeric question's "step" (answer_step.h): validation naming the field,
// grid rounding without decimal drift, answers off the grid refused, the
// simulated respondents answering on the grid, quantiles rounded outwards.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "core/common/seeded_random.h"
#include "core/kinds/numeric/answer_step.h"
#include "core/kinds/numeric/numeric_question_kind.h"
#include "core/kinds/numeric/numeric_results.h"
#include "core/survey/survey.h"

using namespace deniable;
using nlohmann::json;

namespace {

Result<std::optional<AnswerStep>> ParseStep(const json& step, NumericRange range) {
  return AnswerStep::Parse({{"step", step}}, range, "questions[0]");
}

json NumericSurvey(const json& step, const json& range) {
  json question = {{"id", "rating"}, {"text", "r"}, {"type", "numeric"}, {"range", range},
                   {"mechanism", {{"name", "square_wave"}, {"epsilon", 2}}}};
  if (!step.is_null()) question["step"] = step;
  return {{"format", kSurveyFormat}, {"id", "s"}, {"version", 1}, {"title", "s"}, {"questions", {question}}};
}

}  // namespace

TEST_CASE("answer step: absent is none; a step must divide the range's width into whole steps") {
  CHECK_FALSE(AnswerStep::Parse(json::object(), {0, 10}, "questions[0]")->has_value());
  CHECK(ParseStep(1, {0, 10}).value()->step() == 1.0);
  CHECK(ParseStep(0.1, {1, 10}).value()->step() == 0.1);  // 90 steps, though 9 / 0.1 is not exactly 90
  CHECK(ParseStep(0.25, {-1, 1}).ok());
  CHECK(ParseStep(0.3, {0, 10}).error() ==
        "questions[0].step: 0.3 does not divide the range's width 10 into whole steps (it gives 33.3333333333)");
  CHECK(ParseStep(0, {0, 10}).error() ==
        "questions[0].step: must be a number > 0 (answers are low + k * step), but is 0");
  CHECK(ParseStep("1", {0, 10}).error() ==
        "questions[0].step: must be a number > 0 (answers are low + k * step), but is \"1\"");
  CHECK(ParseStep(20, {0, 10}).error() ==
        "questions[0].step: 20 must divide the range's width 10 into 1 to 1000000 steps, but gives 0.5");
  CHECK(ParseStep(1e-6, {0, 10}).error() ==
        "questions[0].step: 1e-06 must divide the range's width 10 into 1 to 1000000 steps, but gives 10000000");
}

TEST_CASE("answer step: only rounding error is forgiven, and large numbers are on the grid within their own spacing") {
  CHECK(ParseStep(1, {0, 600000.3}).error() ==
        "questions[0].step: 1 does not divide the range's width 600000.3 into whole steps (it gives 600000.3)");
  CHECK_FALSE(ParseStep(1, {0, 999999.6}).ok());
  CHECK_FALSE(ParseStep(1, {0, 1000000.4}).ok());
  CHECK(ParseStep(1, {0, 1000000}).ok());
  // At 1e8 a double is stored to 1.5e-8: every thousandth above 1e8 is still on a grid of 0.001.
  const AnswerStep fine = *ParseStep(0.001, {1e8, 1e8 + 100}).value();
  int on_grid = 0;
  for (int k = 0; k < 1000; ++k) on_grid += fine.OnGrid(1e8 + k * 0.001) ? 1 : 0;
  CHECK(on_grid == 1000);
  CHECK_FALSE(fine.OnGrid(1e8 + 0.0005));
  // The top grid value never leaves the range.
  const AnswerStep tenths = *ParseStep(0.1, {1, 10}).value();
  CHECK(tenths.Ceil(10.0) <= 10.0);
  CHECK(tenths.Nearest(9.99) <= 10.0);
}

TEST_CASE("answer step: floor, ceiling and nearest grid values from the range's low end, held in the range") {
  const AnswerStep step = *ParseStep(0.1, {1, 10}).value();
  CHECK(step.Floor(5.34) == doctest::Approx(5.3));
  CHECK(step.Ceil(5.34) == doctest::Approx(5.4));
  CHECK(step.Nearest(5.34) == doctest::Approx(5.3));
  CHECK(step.Floor(5.3) == doctest::Approx(5.3));  // a grid value is its own floor and ceiling
  CHECK(step.Ceil(5.3) == doctest::Approx(5.3));
  CHECK(step.Floor(0.5) == 1.0);
  CHECK(step.Ceil(10.5) == doctest::Approx(10.0));
  CHECK(step.OnGrid(7.3));
  CHECK(step.OnGrid(1.0));
  CHECK_FALSE(step.OnGrid(7.35));
  const AnswerStep years = *ParseStep(1, {18, 90}).value();
  CHECK(years.Floor(34.999) == 34.0);
  CHECK(years.Ceil(34.001) == 35.0);
}

TEST_CASE("answer step: a survey keeps it, refuses answers off the grid, and simulated answers lie on it") {
  const auto survey = ParseSurvey(NumericSurvey(0.5, {0, 10}));
  REQUIRE(survey.ok());
  const auto& kind = NumericKindOf(survey->questions[0]);
  CHECK(kind.DefinitionToJson()["step"] == 0.5);
  SeededRandom random(7);
  CHECK(kind.Perturb(2.5, random).ok());
  CHECK(kind.Perturb(2.6, random).error() == "must be 0 plus a whole number of steps of 0.5, but is 2.6");
  CHECK(ParseSurvey(NumericSurvey(0.3, {0, 10})).error() ==
        "questions[0].step: 0.3 does not divide the range's width 10 into whole steps (it gives 33.3333333333)");
  auto sampler = kind.ParseTruth({{"distribution", "normal"}, {"mean", 4.1}, {"sd", 2}}, "truth.rating");
  REQUIRE(sampler.ok());
  for (int i = 0; i < 200; ++i) CHECK(kind.answer_step()->OnGrid((*sampler)->Draw(random)->get<double>()));
}

TEST_CASE("answer step: quantiles are grid values inside intervals with grid ends; the mean is not rounded") {
  const auto survey = ParseSurvey(NumericSurvey(1, {0, 10}));
  REQUIRE(survey.ok());
  const auto& kind = NumericKindOf(survey->questions[0]);
  SeededRandom random(11);
  NumericAggregate aggregate{0, *NumericHistogram::ForMechanism(kind.mechanism())};
  for (int i = 0; i < 2000; ++i) {
    const double answer = (i % 5 == 0) ? 5.0 : static_cast<double>(i % 9);
    REQUIRE(aggregate.AddValues(*kind.mechanism().Perturb(answer, random)).ok());
  }
  const auto result = NumericResultToJson(kind, aggregate, NumericEstimateOptions{});
  REQUIRE(result.ok());
  CHECK((*result)["step"] == 1.0);
  for (const char* name : {"median", "lower_quartile", "upper_quartile"}) {
    INFO(name);
    const json& statistic = (*result)["statistics"][name];
    for (const char* field : {"value", "low", "high"}) CHECK(kind.answer_step()->OnGrid(statistic[field].get<double>()));
    CHECK(statistic["low"].get<double>() <= statistic["value"].get<double>());
    CHECK(statistic["value"].get<double>() <= statistic["high"].get<double>());
  }
  CHECK_FALSE(kind.answer_step()->OnGrid((*result)["statistics"]["mean"]["value"].get<double>()));
}
