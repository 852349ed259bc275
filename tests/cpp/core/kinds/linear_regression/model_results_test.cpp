// A model's results (model_results.h, seed 003): coefficients between the
// normalised scale and the variables' units, and the chains' interval: their
// disagreement, none without two complete chains, and its coverage of the
// run-to-run mean over arrival orders.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <vector>

#include "core/common/seeded_random.h"
#include "core/common/student_t.h"
#include "core/kinds/linear_regression/model_gradient.h"
#include "core/kinds/linear_regression/model_results.h"
#include "core/kinds/linear_regression/model_rounds.h"
#include "core/kinds/numeric/numeric_truth.h"
#include "core/numeric/numeric_mechanism_factory.h"
#include "core/survey/aggregate.h"
#include "core/survey/report.h"
#include "core/survey/results.h"
#include "core/survey/survey.h"
#include "tests/cpp/support/model_survey.h"

using namespace deniable;
using nlohmann::json;
using namespace deniable::testing;

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
