// The out-of-sample score of a model (model_score.h): held-out rounds score the
// final coefficients without bias, and without them the results say why.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

#include "core/common/seeded_random.h"
#include "core/kinds/linear_regression/model_gradient.h"
#include "core/kinds/linear_regression/model_rounds.h"
#include "core/kinds/linear_regression/model_score.h"
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
