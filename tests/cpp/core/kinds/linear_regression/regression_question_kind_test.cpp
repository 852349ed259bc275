// The linear_regression kind (seed 003 §5): the clipped gradient, the
// coefficients' units, one sampled component per report, per-round sums that
// merge in any order, convergence to the least-squares coefficients when
// the gradients are (nearly) noise-free, the rounds dealt to chains in turn,
// and the chains' interval covering the run-to-run mean at its nominal rate.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>

#include "core/common/seeded_random.h"
#include "core/kinds/numeric/numeric_truth.h"
#include "core/kinds/linear_regression/model_gradient.h"
#include "core/kinds/linear_regression/model_results.h"
#include "core/kinds/linear_regression/model_rounds.h"
#include "core/kinds/linear_regression/model_score.h"
#include "core/kinds/linear_regression/model_series.h"
#include "core/kinds/linear_regression/regression_question_kind.h"
#include "core/common/student_t.h"
#include "core/survey/aggregate.h"
#include "core/survey/report.h"
#include "core/survey/results.h"
#include "core/survey/survey.h"

using namespace deniable;
using nlohmann::json;

namespace {

json ModelSurvey(double epsilon, int batch, double clip, double rate = 1.0, std::optional<int> chains = std::nullopt) {
  json survey = {{"format", "deniable.survey/v1"}, {"id", "m"}, {"version", 1}, {"title", "M"},
          {"questions",
           {{{"id", "x1"}, {"text", "x1"}, {"type", "numeric"}, {"range", {0, 10}}, {"required", false},
             {"mechanism", {{"name", "duchi"}, {"epsilon", 1}}}},
            {{"id", "x2"}, {"text", "x2"}, {"type", "numeric"}, {"range", {-5, 5}}, {"required", false},
             {"mechanism", {{"name", "duchi"}, {"epsilon", 1}}}},
            {{"id", "y"}, {"text", "y"}, {"type", "numeric"}, {"range", {0, 100}}, {"required", false},
             {"mechanism", {{"name", "duchi"}, {"epsilon", 1}}}},
            {{"id", "fit"}, {"text", "fit"}, {"type", "linear_regression"}, {"target", "y"}, {"features", {"x1", "x2"}},
             {"epsilon", epsilon}, {"batch", batch}, {"clip", clip}, {"learning_rate", rate}, {"ridge", 0}}}}};
  if (chains) survey["questions"][3]["chains"] = *chains;
  return survey;
}

const ModelDefinition& ModelOf(const Survey& survey) {
  return static_cast<const RegressionQuestionKind&>(*survey.questions[3].kind).model();
}

}  // namespace

TEST_CASE("regression: the gradient of the squared error, clipped per component and scaled by the clip") {
  auto survey = ParseSurvey(ModelSurvey(1.0, 10, 1.0));
  REQUIRE(survey.ok());
  const ModelDefinition& model = ModelOf(*survey);
  CHECK(model.feature_ranges[1].low == -5.0);
  // x = (5, 0) -> normalised (0, 0); y = 75 -> 0.5. At b = 0 the residual is -0.5: g = 2 * -0.5 * (1, 0, 0).
  CHECK(ClippedGradient(model, {{5.0, 0.0}, 75.0}, {0, 0, 0}) == std::vector<double>{-1.0, 0.0, 0.0});
  // x = (10, 5) -> (1, 1), y = 0 -> -1, b = (0.5, 0, 0): residual 1.5, g = (3, 3, 3) clipped to 1.
  CHECK(ClippedGradient(model, {{10.0, 5.0}, 0.0}, {0.5, 0, 0}) == std::vector<double>{1.0, 1.0, 1.0});
  auto wide = ParseSurvey(ModelSurvey(1.0, 10, 4.0));
  CHECK(ClippedGradient(ModelOf(*wide), {{10.0, 5.0}, 0.0}, {0.5, 0, 0}) == std::vector<double>{0.75, 0.75, 0.75});
  // Answers outside a variable's range are refused by name.
  const auto& kind = *survey->questions[3].kind;
  SeededRandom random(1);
  const auto bad = kind.Perturb(json{{"features", {11, 0}}, {"target", 5}, {"state", {{"round", 1}, {"coefficients", {0, 0, 0}}}}}, random);
  REQUIRE(!bad.ok());
  CHECK(bad.error() == "features[0] (x1) must be a number in [0, 10], but is 11");
  const auto stateless = kind.Perturb(json{{"features", {1, 0}}, {"target", 5}}, random);
  CHECK(stateless.error().find("state: the model's current state is needed") == 0);
}

TEST_CASE("regression: coefficients convert between the normalised scale and the variables' units") {
  auto survey = ParseSurvey(ModelSurvey(1.0, 10, 1.0));
  const ModelDefinition& model = ModelOf(*survey);
  const std::vector<double> normalised = {0.1, -0.3, 0.7};
  const std::vector<double> raw = RawCoefficients(model, normalised);
  // Prediction at x = (2, -1) agrees on both scales.
  const double x1 = 2.0, x2 = -1.0;
  const double predicted_normalised = normalised[0] + normalised[1] * (2 * x1 / 10 - 1) + normalised[2] * (2 * (x2 + 5) / 10 - 1);
  CHECK(raw[0] + raw[1] * x1 + raw[2] * x2 == doctest::Approx(0 + (predicted_normalised + 1) * 50));
  const std::vector<double> back = NormalisedCoefficients(model, raw);
  for (int j = 0; j < 3; ++j) CHECK(back[j] == doctest::Approx(normalised[j]));
}

TEST_CASE("regression: each report carries one uniformly drawn component; rounds merge in any order") {
  auto survey = ParseSurvey(ModelSurvey(2.0, 30, 1.0));
  REQUIRE(survey.ok());
  SeededRandom random(4);
  SurveyAggregate all(*survey), odd(*survey), even(*survey);
  std::vector<int> components(3, 0);
  for (int i = 0; i < 300; ++i) {
    const json answers = WithPublicStates(*survey, all, json{{"fit", {{"features", {i % 10, (i % 7) - 3}}, {"target", (i * 13) % 100}}}});
    auto wire = PerturbAnswers(*survey, answers, random);
    REQUIRE(wire.ok());
    ++components[(*wire)["responses"]["fit"]["component"].get<int>()];
    auto report = ParseReport(*survey, *wire);
    REQUIRE(report.ok());
    REQUIRE(all.Admits(*survey, *report).ok());
    all.Add(*report);
    (i % 2 ? odd : even).Add(*report);
  }
  for (int count : components) CHECK(std::abs(count - 100) < 4 * std::sqrt(300 * (1.0 / 3) * (2.0 / 3)));
  REQUIRE(odd.Merge(even).ok());
  // Equal up to the rounding of sums added in another order.
  const json merged = PublicStatesToJson(*survey, odd)["questions"]["fit"];
  const json sequential = PublicStatesToJson(*survey, all)["questions"]["fit"];
  CHECK(merged["round"] == sequential["round"]);
  for (int j = 0; j < 3; ++j) {
    CHECK(merged["coefficients"][j].get<double>() == doctest::Approx(sequential["coefficients"][j].get<double>()).epsilon(1e-12));
  }
  CHECK(sequential["rounds_completed"] == 10);
}

TEST_CASE("regression: with nearly noise-free gradients (epsilon 30) SGD reaches the least-squares coefficients") {
  // y = 20 + 3 x1 + 4 x2 exactly; clip 8 never binds; small batches, many rounds.
  auto survey = ParseSurvey(ModelSurvey(30.0, 30, 8.0, 0.5));
  REQUIRE(survey.ok());
  SurveyAggregate aggregate(*survey);
  SeededRandom random(7);
  for (int i = 0; i < 60000; ++i) {
    const double x1 = 10.0 * UniformUnit(random), x2 = -5.0 + 10.0 * UniformUnit(random);
    const json answers = WithPublicStates(
        *survey, aggregate, json{{"fit", {{"features", {x1, x2}}, {"target", 20 + 3 * x1 + 4 * x2 + 20}}}});
    auto report = ParseReport(*survey, *PerturbAnswers(*survey, answers, random));
    REQUIRE(report.ok());
    aggregate.Add(*report);
  }
  const json result = SurveyResultsToJson(*survey, aggregate)["questions"][3];
  const auto raw = result["coefficients"]["raw"].get<std::vector<double>>();
  MESSAGE("coefficients after " << result["rounds_completed"] << " rounds: " << raw[0] << ", " << raw[1] << ", " << raw[2]);
  CHECK(raw[0] == doctest::Approx(40.0).epsilon(0.05));
  CHECK(raw[1] == doctest::Approx(3.0).epsilon(0.05));
  CHECK(raw[2] == doctest::Approx(4.0).epsilon(0.05));
}

TEST_CASE("regression: reports counted together are admitted in order, so a round never takes more than its batch") {
  auto survey = ParseSurvey(ModelSurvey(1.0, 3, 1.0));
  REQUIRE(survey.ok());
  SurveyAggregate aggregate(*survey);
  auto gradient = [&](long long round, int component) {
    auto report = ParseReport(*survey, json{{"survey", "m"}, {"version", 1},
                                            {"responses", {{"fit", {{"round", round}, {"component", component}, {"value", 0.5}}}}}});
    REQUIRE(report.ok());
    return *report;
  };
  aggregate.Add(gradient(1, 0));
  // Four reports for round 1, each admitted alone (two places left): counted together, the first two fill it.
  const std::vector<Report> batch = {gradient(1, 1), gradient(1, 2), gradient(1, 0), gradient(1, 1)};
  for (const Report& report : batch) CHECK(aggregate.Admits(*survey, report).ok());
  std::vector<const Report*> pointers;
  for (const Report& report : batch) pointers.push_back(&report);
  const std::vector<Status> admitted = aggregate.AdmitInOrder(*survey, pointers);
  REQUIRE(admitted.size() == 4);
  CHECK(admitted[0].ok());
  CHECK(admitted[1].ok());
  REQUIRE_FALSE(admitted[2].ok());
  CHECK(admitted[2].error() == "questions.fit: round 1 is closed; the current round is 2: fetch the model's state again and prepare a new report");
  CHECK_FALSE(admitted[3].ok());
  // The aggregate itself is unchanged by the judgement.
  CHECK(PublicStatesToJson(*survey, aggregate)["questions"]["fit"]["reports_in_round"] == 1);
}

TEST_CASE("regression: Student's t two-sided 95% quantiles") {
  CHECK(StudentTTwoSidedQuantile(0.95, 1) == doctest::Approx(12.7062).epsilon(1e-5));
  CHECK(StudentTTwoSidedQuantile(0.95, 2) == doctest::Approx(4.30265).epsilon(1e-5));
  CHECK(StudentTTwoSidedQuantile(0.95, 7) == doctest::Approx(2.36462).epsilon(1e-5));
  CHECK(StudentTTwoSidedQuantile(0.95, 30) == doctest::Approx(2.04227).epsilon(1e-5));
  CHECK(StudentTTwoSidedQuantile(0.99, 10) == doctest::Approx(3.16927).epsilon(1e-5));
}

namespace {

Report Gradient(const Survey& survey, long long round, int component, double value) {
  auto report = ParseReport(survey, json{{"survey", "m"}, {"version", 1},
                                         {"responses", {{"fit", {{"round", round}, {"component", component}, {"value", value}}}}}});
  REQUIRE(report.ok());
  return *report;
}

}  // namespace

TEST_CASE("regression: rounds are dealt to the chains in turn; the state is the current round's chain's") {
  auto survey = ParseSurvey(ModelSurvey(1.0, 1, 1.0, 1.0, 2));
  REQUIRE(survey.ok());
  CHECK(ModelOf(*survey).chains() == 2);
  CHECK(ParseSurvey(ModelSurvey(1.0, 1, 1.0))->questions[3].kind->DefinitionToJson().count("chains") == 0);
  CHECK(ModelOf(*ParseSurvey(ModelSurvey(1.0, 1, 1.0))).chains() == kDefaultModelChains);
  auto refused = ParseSurvey(ModelSurvey(1.0, 1, 1.0, 1.0, 0));
  REQUIRE_FALSE(refused.ok());
  CHECK(refused.error().find("chains") != std::string::npos);
  SurveyAggregate aggregate(*survey);
  auto state = [&] { return PublicStatesToJson(*survey, aggregate)["questions"]["fit"]; };
  aggregate.Add(Gradient(*survey, 1, 0, 0.5));  // chain 1, step 1: b0 = -1 * 0.5
  CHECK(state()["round"] == 2);
  CHECK(state()["coefficients"] == json{0.0, 0.0, 0.0});  // chain 2 has not moved
  aggregate.Add(Gradient(*survey, 2, 1, -0.25));  // chain 2, step 1: b1 = +0.25
  CHECK(state()["coefficients"] == json{-0.5, 0.0, 0.0});  // round 3: chain 1 again
  aggregate.Add(Gradient(*survey, 3, 0, 0.5));  // chain 1, step 2: rate 1/sqrt(2)
  CHECK(state()["coefficients"] == json{0.0, 0.25, 0.0});
  const json result = SurveyResultsToJson(*survey, aggregate)["questions"][3];
  CHECK(result["rounds"][3]["chain"] == 1);
  CHECK(result["rounds"][3]["coefficients"][0].get<double>() == doctest::Approx(-0.5 - 0.5 / std::sqrt(2.0)));
  // Chain 1 averages its rounds 3 (the last half of 1 and 3), chain 2 its round 2.
  CHECK(result["coefficients"]["by_chain"][0]["averaged_rounds"] == json{3, 3});
  CHECK(result["coefficients"]["normalised"][0].get<double>() == doctest::Approx((-0.5 - 0.5 / std::sqrt(2.0)) / 2));
}

TEST_CASE("regression: the interval in the variables' units is the chains' disagreement, the intercept's with the slopes' covariance") {
  // 4 chains of one round each (batch 3, one report per component), slopes and intercept moving together.
  auto survey = ParseSurvey(ModelSurvey(1.0, 3, 1.0, 1.0, 4));
  REQUIRE(survey.ok());
  SurveyAggregate aggregate(*survey);
  const double pushes[4] = {0.2, -0.4, 0.6, 0.1};
  for (int round = 1; round <= 4; ++round) {
    aggregate.Add(Gradient(*survey, round, 0, pushes[round - 1]));
    aggregate.Add(Gradient(*survey, round, 1, -pushes[round - 1]));
    aggregate.Add(Gradient(*survey, round, 2, 0.3 * round));
  }
  const json result = SurveyResultsToJson(*survey, aggregate)["questions"][3];
  CHECK(result["interval_for"]["target"] == "population");
  const json& coefficients = result["coefficients"];
  REQUIRE(coefficients["interval_raw"].is_array());
  std::vector<double> intercepts;
  for (const json& chain : coefficients["by_chain"]) intercepts.push_back(chain["raw"][0].get<double>());
  double mean = 0.0, squares = 0.0;
  for (double value : intercepts) mean += value / 4;
  for (double value : intercepts) squares += (value - mean) * (value - mean);
  const double half = StudentTTwoSidedQuantile(0.95, 3) * std::sqrt(squares / 3 / 4);
  CHECK(coefficients["raw"][0].get<double>() == doctest::Approx(mean));
  CHECK(coefficients["interval_raw"][0][0].get<double>() == doctest::Approx(mean - half));
  CHECK(coefficients["interval_raw"][0][1].get<double>() == doctest::Approx(mean + half));
  // The former rescaling (the normalised intercept's error times w_y / 2 = 50) ignores the slopes: here it is wrong.
  const double rescaled = coefficients["standard_error"][0].get<double>() * 50.0;
  CHECK(std::fabs(rescaled - coefficients["standard_error_raw"][0].get<double>()) > 0.5 * rescaled);
  for (std::size_t j = 0; j < 3; ++j) {  // every estimate inside its own interval
    CHECK(coefficients["interval_raw"][j][0].get<double>() <= coefficients["raw"][j].get<double>());
    CHECK(coefficients["raw"][j].get<double>() <= coefficients["interval_raw"][j][1].get<double>());
  }
  const auto rows = survey->questions[3].kind->CsvRows(result);
  CHECK(rows[0].ci_low.get<double>() == doctest::Approx(mean - half));
  // The respondents' interval cannot be had: said so, the population's given.
  const json asked = SurveyResultsToJson(*survey, aggregate, json{{"fit.interval", "respondents"}})["questions"][3];
  CHECK(asked["interval_for"]["target"] == "population");
  CHECK(asked["interval_for"]["note"].get<std::string>().find("no interval that holds the respondents fixed") != std::string::npos);
}

TEST_CASE("regression: one chain, or chains without a complete round, give no interval and say so") {
  auto single = ParseSurvey(ModelSurvey(1.0, 1, 1.0, 1.0, 1));
  REQUIRE(single.ok());
  SurveyAggregate aggregate(*single);
  for (int round = 1; round <= 3; ++round) aggregate.Add(Gradient(*single, round, 0, 0.5));
  json result = SurveyResultsToJson(*single, aggregate)["questions"][3];
  CHECK(result["coefficients"]["interval_raw"].is_null());
  CHECK(result["coefficients"]["uncertainty"].get<std::string>().find("one chain (\"chains\": 1): no interval") != std::string::npos);
  auto four = ParseSurvey(ModelSurvey(1.0, 1, 1.0, 1.0, 4));
  SurveyAggregate partial(*four);
  for (int round = 1; round <= 3; ++round) partial.Add(Gradient(*four, round, 0, 0.5));
  result = SurveyResultsToJson(*four, partial)["questions"][3];
  CHECK(result["coefficients"]["interval_raw"].is_null());
  CHECK(result["coefficients"]["uncertainty"].get<std::string>().find("3 of the 4 chains have a complete round") != std::string::npos);
  CHECK(result["warning"].get<std::string>().find("the chain with fewest rounds has 0 rounds") == 0);
}

namespace {

// One run: the same respondents in the order `order` gives, answering as the page does.
json TrainInOrder(const ModelDefinition& model, const NumericMechanism& mechanism, long long batch,
                  std::vector<ModelRecord> records, std::uint64_t order) {
  SeededRandom shuffle(1000 + order), random(order);
  for (std::size_t i = records.size(); i > 1; --i) std::swap(records[i - 1], records[UniformBelow(shuffle, i)]);
  ModelAggregate aggregate(std::make_shared<const ModelDefinition>(model), batch);
  std::vector<double> state = ReplayModel(model, aggregate).current;
  for (const ModelRecord& record : records) {
    const long long round = aggregate.CurrentRound();
    const auto wire = PerturbModelAnswer(model, mechanism, {record, round, state}, random);
    REQUIRE(wire.ok());
    aggregate.Add(GradientResponse(round, (*wire)["component"].get<int>(), (*wire)["value"].get<double>()));
    if (aggregate.CurrentRound() != round) state = ReplayModel(model, aggregate).current;  // the served state
  }
  return ModelResultToJson(model, aggregate);
}

}  // namespace

TEST_CASE("regression: the chains' 95% interval covers the run-to-run mean over 40 arrival orders of the same respondents") {
  // 6,000 fixed respondents, y = 40 + 3 x1 + 4 x2 + Normal(0, 10) clipped to [0, 100]; epsilon 1, batch 60
  // (100 rounds, 12-13 per chain). Each order is also another randomisation.
  auto survey = ParseSurvey(ModelSurvey(1.0, 60, 1.0));
  REQUIRE(survey.ok());
  const ModelDefinition& model = ModelOf(*survey);
  const auto mechanism = GradientMechanism(model).value();
  SeededRandom random(99);
  std::vector<ModelRecord> records;
  for (int i = 0; i < 6000; ++i) {
    const double x1 = 10.0 * UniformUnit(random), x2 = -5.0 + 10.0 * UniformUnit(random);
    records.push_back({{x1, x2}, std::clamp(40 + 3 * x1 + 4 * x2 + 10 * StandardNormal(random), 0.0, 100.0)});
  }
  constexpr int kOrders = 40;
  std::vector<json> runs;
  for (int order = 1; order <= kOrders; ++order) runs.push_back(TrainInOrder(model, *mechanism, 60, records, order)["coefficients"]);
  // At 95% over 40 runs the binomial sd is sqrt(40 x .95 x .05) = 1.38 runs: at least 38 - 3 x 1.38, i.e. 34.
  for (std::size_t j = 0; j < 3; ++j) {
    double mean = 0.0;
    for (const json& run : runs) mean += run["raw"][j].get<double>() / kOrders;
    int covered = 0;
    for (const json& run : runs) {
      REQUIRE(run["interval_raw"].is_array());
      covered += run["interval_raw"][j][0].get<double>() <= mean && mean <= run["interval_raw"][j][1].get<double>();
    }
    MESSAGE("coefficient " << j << ": run-to-run mean " << mean << ", covered by " << covered << " of " << kOrders);
    CHECK(covered >= 34);
  }
}

TEST_CASE("regression: the public state is kept as rounds close, equal to a full replay, also after merges and late reports") {
  auto survey = ParseSurvey(ModelSurvey(1.0, 3, 1.0, 1.0, 4));
  REQUIRE(survey.ok());
  const auto& kind = *survey->questions[3].kind;
  const ModelDefinition& model = ModelOf(*survey);
  SeededRandom random(11);
  auto whole = kind.NewAggregate();
  auto first_half = kind.NewAggregate(), second_half = kind.NewAggregate();
  auto& whole_model = static_cast<ModelAggregate&>(*whole);
  for (int report = 0; report < 90; ++report) {
    const long long round = whole_model.CurrentRound();
    const GradientResponse response(round, static_cast<int>(UniformBelow(random, 3)), 2.0 * UniformUnit(random) - 1.0);
    whole->Add(response);
    (report % 2 == 0 ? first_half : second_half)->Add(response);
    const ModelTrajectory replay = ReplayModel(model, whole_model);
    REQUIRE(whole_model.CurrentCoefficients() == replay.current);
    CHECK(kind.PublicState(*whole)->at("rounds_completed") == replay.steps.size());
  }
  CHECK(whole_model.CurrentRound() == 31);
  // Merged halves (each with out-of-order rounds of its own) give the same state.
  REQUIRE(first_half->Merge(*second_half).ok());
  CHECK(static_cast<const ModelAggregate&>(*first_half).CurrentCoefficients() == whole_model.CurrentCoefficients());
  // A report counted in a closed round (replayed from an older database) moves every later step of its chain.
  whole->Add(GradientResponse(2, 0, 0.9));
  const ModelTrajectory replay = ReplayModel(model, whole_model);
  CHECK(whole_model.CurrentCoefficients() == replay.current);
  CHECK(kind.PublicState(*whole)->at("coefficients") == json(replay.current));
}

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

TEST_CASE("regression: max_rounds bounds the rounds; a complete model refuses gradients and takes the report without them") {
  json definition = ModelSurvey(1.0, 1, 1.0, 1.0, 2);
  CHECK(ModelOf(*ParseSurvey(definition)).max_rounds() == kDefaultModelMaxRounds);
  CHECK(ParseSurvey(definition)->questions[3].kind->DefinitionToJson().count("max_rounds") == 0);
  for (const auto& [rounds, message] : std::vector<std::pair<json, std::string>>{
           {0, "questions[3].max_rounds: must be between 1 and 100000, but is 0"},
           {100001, "questions[3].max_rounds: must be between 1 and 100000, but is 100001"},
           {1, "questions[3].max_rounds: must be at least the number of chains (2), so that every chain trains, but is 1"}}) {
    definition["questions"][3]["max_rounds"] = rounds;
    const auto refused = ParseSurvey(definition);
    REQUIRE_FALSE(refused.ok());
    CHECK(refused.error() == message);
  }
  definition["questions"][3]["max_rounds"] = 4;
  auto survey = ParseSurvey(definition);
  REQUIRE(survey.ok());
  CHECK(survey->questions[3].kind->DefinitionToJson()["max_rounds"] == 4);
  SurveyAggregate aggregate(*survey);
  auto state = [&] { return PublicStatesToJson(*survey, aggregate)["questions"]["fit"]; };
  auto report = [&](const json& response) {
    auto parsed = ParseReport(*survey, json{{"survey", "m"}, {"version", 1}, {"responses", {{"fit", response}}}});
    REQUIRE(parsed.ok());
    return *parsed;
  };
  // While the model takes reports, its part cannot be left out (null).
  const Report none = report(nullptr);
  CHECK(aggregate.Admits(*survey, none).error().find("questions.fit: the model still takes reports (round 1 of at most 4)") == 0);
  CHECK_FALSE(aggregate.RefusedAsComplete(none));
  CHECK(state().count("complete") == 0);
  for (long long round = 1; round <= 4; ++round) {
    REQUIRE(aggregate.Admits(*survey, Gradient(*survey, round, 0, 0.5)).ok());
    aggregate.Add(Gradient(*survey, round, 0, 0.5));
  }
  // Complete: round 5 would be past the cap. Refused as complete (409 model_complete), the null admitted.
  CHECK(state()["complete"] == true);
  CHECK(state()["round"] == 5);
  const Report past = Gradient(*survey, 5, 1, 0.5);
  const Status refused = aggregate.Admits(*survey, past);
  REQUIRE_FALSE(refused.ok());
  CHECK(refused.error().find("questions.fit: the model is complete: its 4 rounds (max_rounds) are all done") == 0);
  CHECK(aggregate.RefusedAsComplete(past));
  CHECK(aggregate.Admits(*survey, none).ok());
  // The respondent's device, given that state, computes and sends nothing for the model.
  SeededRandom random(3);
  const auto answer = survey->questions[3].kind->Perturb(
      json{{"features", {1, 0}}, {"target", 5}, {"state", state()}}, random);
  REQUIRE(answer.ok());
  CHECK(answer->is_null());
  aggregate.Add(none);
  CHECK(aggregate.question(3).n() == 4);
  const json result = SurveyResultsToJson(*survey, aggregate)["questions"][3];
  CHECK(result["complete"] == true);
  CHECK(result["max_rounds"] == 4);
  CHECK(result["rounds_completed"] == 4);
  CHECK(result["note"].get<std::string>().find("the model is complete") == 0);
}

namespace {

// A population of records in the model's variables (raw units): x1 ~ U[0, 10],
// x2 ~ U[-5, 5], y = 20 + 3 x1 + 4 x2 + N(0, 10^2), kept in [0, 100].
ModelRecord DrawRecord(RandomSource& random) {
  const double x1 = 10.0 * UniformUnit(random), x2 = 10.0 * UniformUnit(random) - 5.0;
  const double normal = std::sqrt(-2.0 * std::log(1.0 - UniformUnit(random))) * std::cos(2.0 * M_PI * UniformUnit(random));
  return {{x1, x2}, std::clamp(20.0 + 3.0 * x1 + 4.0 * x2 + 10.0 * normal, 0.0, 100.0)};
}

// The population's E[s] and the variance of one perturbed score report,
// E[Var(y | v)] + Var(v) with v = s/2 - 1 (the variance formula behind the
// tolerances), from `draws` records.
std::pair<double, double> ScoreTruth(const ModelDefinition& model, const NumericMechanism& mechanism,
                                     const std::vector<double>& coefficients, int draws) {
  SeededRandom random(99);
  double sum = 0.0, squares = 0.0, noise = 0.0;
  for (int i = 0; i < draws; ++i) {
    const double v = ScoreToUnit(ClampedSquaredError(model, DrawRecord(random), coefficients));
    sum += v;
    squares += v * v;
    noise += *mechanism.UnbiasedValueVariance(v);
  }
  const double mean = sum / draws;
  return {2.0 * (mean + 1.0), noise / draws + squares / draws - mean * mean};
}

}  // namespace

TEST_CASE("regression: held-out rounds score the final coefficients: an unbiased out-of-sample squared error") {
  json definition = ModelSurvey(1.0, 500, 1.0, 1.0, 2);
  definition["questions"][3]["max_rounds"] = 3;
  definition["questions"][3]["holdout"] = 0.5;  // 2 held out of 3: 1 training round for 2 chains
  CHECK(ParseSurvey(definition).error() ==
        "questions[3].holdout: leaves 1 training rounds of 3, fewer than the chains (2): lower it or raise max_rounds");
  definition["questions"][3]["holdout"] = 0.6;
  CHECK(ParseSurvey(definition).error() == "questions[3].holdout: must be in [0, 0.5], but is 0.6");
  definition["questions"][3]["max_rounds"] = 6;
  definition["questions"][3]["holdout"] = 0.5;  // rounds 1-3 train, 4-6 score
  auto survey = ParseSurvey(definition);
  REQUIRE(survey.ok());
  const ModelDefinition& model = ModelOf(*survey);
  CHECK(model.training_rounds() == 3);
  CHECK(survey->questions[3].kind->DefinitionToJson()["holdout"] == 0.5);
  const auto& kind = *survey->questions[3].kind;
  SurveyAggregate aggregate(*survey);
  auto state = [&] { return PublicStatesToJson(*survey, aggregate)["questions"]["fit"]; };
  // Training: 3 rounds of 500 synthetic gradient reports move the coefficients.
  const double values[3] = {-0.6, -0.3, 0.2};
  for (long long round = 1; round <= 3; ++round) {
    for (int i = 0; i < 500; ++i) aggregate.Add(Gradient(*survey, round, i % 3, values[i % 3]));
  }
  const auto& fit = static_cast<const ModelAggregate&>(aggregate.question(3));
  const std::vector<double> final_coefficients = FinalCoefficients(ReplayModel(model, fit));
  CHECK(state()["round"] == 4);
  CHECK(state()["score"] == true);
  CHECK(state()["coefficients"] == json(final_coefficients));
  CHECK(final_coefficients[0] > 0.5);
  // A gradient is refused in a held-out round; the results say no error yet.
  CHECK(aggregate.Admits(*survey, Gradient(*survey, 4, 0, 0.5)).error() ==
        "questions.fit: round 4 is held out to score the model: it takes squared errors, not gradients; fetch the "
        "model's state again and prepare a new report");
  CHECK(SurveyResultsToJson(*survey, aggregate)["questions"][3]["out_of_sample"]["mse"].is_null());
  // 1,500 held-out respondents, through the respondent's own client path.
  auto mechanism = GradientMechanism(model);
  REQUIRE(mechanism.ok());
  const auto [truth, report_variance] = ScoreTruth(model, **mechanism, final_coefficients, 200000);
  SeededRandom random(2026);
  for (int i = 0; i < 1500; ++i) {
    const ModelRecord record = DrawRecord(random);
    auto wire = kind.Perturb(json{{"features", record.features}, {"target", record.target}, {"state", state()}}, random);
    REQUIRE(wire.ok());
    REQUIRE(wire->contains("squared_error"));
    auto report = ParseReport(*survey, json{{"survey", "m"}, {"version", 1}, {"responses", {{"fit", *wire}}}});
    REQUIRE(report.ok());
    REQUIRE(aggregate.Admits(*survey, *report).ok());
    aggregate.Add(*report);
  }
  CHECK(state()["complete"] == true);
  const json result = SurveyResultsToJson(*survey, aggregate)["questions"][3];
  CHECK(result["coefficients"]["normalised"] == json(final_coefficients));  // scoring moved nothing
  const json& score = result["out_of_sample"];
  REQUIRE(score["mse"].is_number());
  CHECK(score["reports"] == 1500);
  // The estimate's standard error from the variance formula: 2 sqrt(Var(v^) / m).
  const double standard_error = 2.0 * std::sqrt(report_variance / 1500.0);
  MESSAGE("out-of-sample MSE " << score["mse"] << " (truth " << truth << ", se " << standard_error << ", reported se "
                               << score["standard_error"] << ")");
  CHECK(std::abs(score["mse_unbiased"].get<double>() - truth) < 4.0 * standard_error);
  CHECK(score["mse"] == score["mse_unbiased"]);  // far from 0: not clamped
  // The reports' own spread estimates it (relative sd about 2% at m = 1500).
  CHECK(score["standard_error"].get<double>() == doctest::Approx(standard_error).epsilon(0.1));
  const double half_range = 50.0;  // the target's range is [0, 100]
  CHECK(score["mse_raw"].get<double>() == doctest::Approx(score["mse"].get<double>() * half_range * half_range));
  const std::vector<CsvRow> rows = kind.CsvRows(result);
  REQUIRE(rows.size() == 4);  // the 3 coefficients, then the held-out error
  CHECK(rows[3].label == "prediction (held out)");
  CHECK(rows[3].estimate == score["mse_raw"]);
  CHECK(rows[3].count == 1500);

  // The interval's coverage over 300 surveys of 400 held-out respondents:
  // 95% nominal, binomial sd 1.26%, so at least 91.2% (3 sd).
  const double unit_se = 2.0 * std::sqrt(report_variance / 400.0);
  int covered = 0;
  double worst = 0.0;
  for (int survey_seed = 0; survey_seed < 300; ++survey_seed) {
    std::int64_t reports = 0;
    double sum = 0.0, squares = 0.0;
    for (int i = 0; i < 400; ++i) {
      const double v = ScoreToUnit(ClampedSquaredError(model, DrawRecord(random), final_coefficients));
      const double reported = (*(*mechanism)->Perturb(v, random))[0];
      ++reports;
      sum += reported;
      squares += reported * reported;
    }
    const auto estimate = EstimateScore(reports, sum, squares);
    REQUIRE(estimate.has_value());
    covered += estimate->low <= truth && truth <= estimate->high;
    worst = std::max(worst, std::abs(estimate->mse - truth) / unit_se);
  }
  MESSAGE("held-out interval covered the population's MSE in " << covered << " of 300; largest error " << worst << " se");
  CHECK(covered >= 274);
}

TEST_CASE("regression: without held-out rounds the results say why there is no out-of-sample error") {
  auto survey = ParseSurvey(ModelSurvey(1.0, 1, 1.0, 1.0, 2));
  SurveyAggregate aggregate(*survey);
  aggregate.Add(Gradient(*survey, 1, 0, 0.5));
  const json score = SurveyResultsToJson(*survey, aggregate)["questions"][3]["out_of_sample"];
  CHECK(score["mse"].is_null());
  CHECK(score["note"].get<std::string>().find("no held-out rounds (\"holdout\": 0): every report is a noisy gradient") == 0);
}
