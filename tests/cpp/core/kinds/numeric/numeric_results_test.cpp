// Numeric results end to end in core: reports from a known population, the
// aggregate, then the results document with its bootstrap bands.
#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <cmath>

#include "core/distribution/ems_estimator.h"
#include "core/kinds/numeric/numeric_truth.h"
#include "core/survey/report.h"
#include "core/survey/results.h"
#include "core/common/seeded_random.h"
#include "core/kinds/numeric/numeric_results.h"
#include "core/kinds/numeric/numeric_statistics.h"
#include "core/survey/interval_target.h"

using namespace deniable;
using nlohmann::json;

namespace {

Survey TwoNumericQuestions() {
  return *ParseSurvey(json::parse(R"({
    "format": "deniable.survey/v1", "id": "n2", "version": 1, "title": "T",
    "questions": [
      {"id": "rv", "text": "RVNS", "type": "numeric", "range": [0, 10],
       "mechanism": {"name": "rvns", "window": 2, "values": 2, "window_mode": "fresh", "uniform_probability": 0.2}},
      {"id": "sw", "text": "Square wave", "type": "numeric", "range": [0, 10],
       "mechanism": {"name": "square_wave", "epsilon": 2}},
      {"id": "pm", "text": "Piecewise", "type": "numeric", "range": [0, 10],
       "mechanism": {"name": "piecewise", "epsilon": 2}}
    ]})"));
}

// A population with a known mean: answers spread as a triangle on [2, 8] (mean 5).
double TriangleAnswer(RandomSource& random) { return 2.0 + 3.0 * (UniformUnit(random) + UniformUnit(random)); }

// n respondents of TwoNumericQuestions() giving one triangle answer to all three questions.
void AddTriangleRespondents(const Survey& survey, int n, RandomSource& random, SurveyAggregate& aggregate) {
  for (int i = 0; i < n; ++i) {
    const double x = TriangleAnswer(random);
    aggregate.Add(*ParseReport(survey, *PerturbAnswers(survey, json{{"rv", x}, {"sw", x}, {"pm", x}}, random)));
  }
}

}  // namespace

TEST_CASE("numeric results on a fine grid (coarse-to-fine PML) agree with the default grid") {
  // PML's estimate does not depend on the grid, so the 400-cell results (which
  // run coarse-to-fine from 100 cells) must tell the same story as the
  // 100-cell ones: means within 0.01 (measured at most 0.0005), and the fine
  // density still integrates to 1.
  const Survey survey = TwoNumericQuestions();
  SurveyAggregate aggregate(survey);
  SeededRandom random(9);
  AddTriangleRespondents(survey, 20000, random, aggregate);
  NumericEstimateOptions coarse;
  coarse.replicates = 20;
  NumericEstimateOptions fine = coarse;
  fine.estimation_cells = 400;
  fine.points = 400;
  const json coarse_results = SurveyResultsToJson(survey, aggregate, coarse);
  const json fine_results = SurveyResultsToJson(survey, aggregate, fine);
  for (std::size_t q = 0; q < 3; ++q) {
    const json& a = coarse_results["questions"][q];
    const json& b = fine_results["questions"][q];
    INFO(a["id"].get<std::string>());
    REQUIRE_FALSE(b.contains("error"));
    const double difference =
        std::fabs(a["statistics"]["mean"]["value"].get<double>() - b["statistics"]["mean"]["value"].get<double>());
    CHECK(difference < 0.01);
    double mass = 0.0;
    for (const auto& value : b["density"]["value"]) mass += value.get<double>() * 10.0 / 400.0;
    CHECK(mass == doctest::Approx(1.0).epsilon(1e-6));
  }
}

TEST_CASE("numeric results: density, CDF, histogram and statistics with bootstrap bands") {
  const Survey survey = TwoNumericQuestions();
  SurveyAggregate aggregate(survey);
  SeededRandom random(8);
  const int n = 20000;
  AddTriangleRespondents(survey, n, random, aggregate);
  NumericEstimateOptions options;
  options.bin_width = 1.0;
  const auto start = std::chrono::steady_clock::now();
  const json results = SurveyResultsToJson(survey, aggregate, options);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  MESSAGE("three numeric questions, n = " << n << ", 50 bootstrap replicates each: " << seconds << " s");
  for (const auto& question : results["questions"]) {
    INFO(question["id"].get<std::string>());
    REQUIRE_FALSE(question.contains("error"));
    CHECK(question["n"] == n);
    // PML's default penalty: 1e-5 sqrt(N) (N = 2n values for this RVNS), which
    // for one-value mechanisms the marginal likelihood may lower
    // (curvature_penalty_choice.h), by half decades.
    const double values = question["id"] == "rv" ? 2.0 * n : n;
    const double rule = 1e-5 * std::sqrt(values);
    const double penalty = question["curvature_penalty"].get<double>();
    if (question["id"] == "rv") {
      CHECK(penalty == doctest::Approx(rule).epsilon(1e-12));
      CHECK(question["curvature_penalty_rule"] == "sqrt_n");
    } else {
      CHECK(penalty <= rule);
      CHECK(question["curvature_penalty_rule"] == (penalty < rule ? "marginal_likelihood" : "sqrt_n"));
      const double steps = 2.0 * std::log10(rule / penalty);
      CHECK(steps == doctest::Approx(std::round(steps)).epsilon(1e-9));
    }
    CHECK(question["density"]["points"].size() == kDefaultDisplayPoints);
    CHECK(question["histogram"]["edges"].size() == 11);
    // The density integrates to 1 over [0, 10] (points are cell centres of width 10/200).
    double mass = 0.0;
    for (const auto& value : question["density"]["value"]) mass += value.get<double>() * 10.0 / kDefaultDisplayPoints;
    CHECK(mass == doctest::Approx(1.0).epsilon(1e-6));
    // The CDF ends at 1 and the bands bracket the estimate.
    CHECK(question["cdf"]["value"].back().get<double>() == doctest::Approx(1.0).epsilon(1e-3));
    const auto& mean = question["statistics"]["mean"];
    CHECK(mean["low"].get<double>() <= mean["value"].get<double>());
    CHECK(mean["value"].get<double>() <= mean["high"].get<double>());
    // With n = 20000 the reconstruction's mean is within 0.3 of the true 5
    // (the 95% bands are about +-0.1 to +-0.2 wide for these mechanisms).
    CHECK(std::fabs(mean["value"].get<double>() - 5.0) < 0.3);
    CHECK(std::fabs(question["statistics"]["median"]["value"].get<double>() - 5.0) < 0.4);
    INFO(question["warning"].dump());
    CHECK(question["warning"].is_null());
  }
  // Piecewise reports are unbiased: the plain mean and its CLT interval.
  const auto& unbiased = results["questions"][2]["unbiased_mean"];
  CHECK(unbiased["ci_low"].get<double>() < 5.0);
  CHECK(unbiased["ci_high"].get<double>() > 5.0);
  CHECK(results["questions"][0]["unbiased_mean"].is_null());
}

TEST_CASE("numeric results say how the estimator's run ended, and warn when it was cut off") {
  const Survey survey = TwoNumericQuestions();
  SurveyAggregate aggregate(survey);
  SeededRandom random(10);
  AddTriangleRespondents(survey, 3000, random, aggregate);
  NumericEstimateOptions options;
  options.replicates = 10;
  const json pml = SurveyResultsToJson(survey, aggregate, options)["questions"][1];
  CHECK(pml["fit"]["converged"] == true);
  CHECK(pml["fit"]["steps"].get<int>() > 0);
  CHECK(pml["fit"]["step_unit"] == "map steps");
  CHECK(pml["fit"]["stopped_because"] == "the objective stopped changing");
  options.estimation_cells = 400;
  const json fine = SurveyResultsToJson(survey, aggregate, options)["questions"][1];
  CHECK(fine["fit"]["converged"] == true);
  CHECK(fine["fit"]["stopped_because"].get<std::string>().rfind("converged on the 100-cell grid, then refined for ", 0) ==
        0);
  options.estimation_cells = kDefaultEstimationCells;
  options.estimator = "kde_sqp";
  const json kde = SurveyResultsToJson(survey, aggregate, options)["questions"][0];
  CHECK(kde["fit"]["step_unit"] == "objective evaluations");
  CHECK(kde["fit"]["stopped_because"].get<std::string>().rfind("NLopt SLSQP returned ", 0) == 0);

  // A run cut off by its cap: plain EM allowed 20 map steps on Laplace noise
  // at epsilon 0.5 (scale 20 on a range of 10), far from its fixed point.
  const Survey laplace = *ParseSurvey(json::parse(R"({
    "format": "deniable.survey/v1", "id": "lap", "version": 1, "title": "T",
    "questions": [{"id": "x", "text": "x", "type": "numeric", "range": [0, 10],
                   "mechanism": {"name": "laplace", "epsilon": 0.5}}]})"));
  SurveyAggregate noisy(laplace);
  for (int i = 0; i < 5000; ++i) {
    noisy.Add(*ParseReport(laplace, *PerturbAnswers(laplace, json{{"x", TriangleAnswer(random)}}, random)));
  }
  options.estimator = "em";
  options.max_iterations = 20;
  const json em = SurveyResultsToJson(laplace, noisy, options)["questions"][0];
  CHECK(em["fit"]["converged"] == false);
  CHECK(em["fit"]["steps"] == 20);
  CHECK(em["fit"]["stopped_because"] == "it reached its cap of 20 map steps");
  CHECK(em["warning"].get<std::string>().rfind(
            "the em estimate stopped before converging (it reached its cap of 20 map steps), so its curves and "
            "statistics may be far from the estimator's answer; the default estimator, pml, is regularised and "
            "converged in every run of our benchmarks",
            0) == 0);
  options.max_iterations = kDefaultEmsMaxIterations;
  options.estimator = "pml";
  const json regularised = SurveyResultsToJson(laplace, noisy, options)["questions"][0];
  CHECK(regularised["fit"]["converged"] == true);
}

TEST_CASE("numeric results: 95% intervals cover a narrow peak's statistics (Square Wave, lowered penalty)") {
  // The sleep-hours example: normal(7, 1) at weight 0.8 on a uniform floor
  // over [0, 12], Square Wave epsilon 2, n = 10,000. With the sqrt(N) rule alone
  // PML over-smoothed the peak and the upper quartile's interval covered the
  // truth in 19 of 40 surveys; the marginal likelihood lowers the penalty
  // (curvature_penalty_choice.h). Tolerance: with true coverage 95%, the count
  // of 40 has mean 38 and SD 1.38; at least 32 is within 5 SD.
  const Survey survey = *ParseSurvey(json::parse(R"({
    "format": "deniable.survey/v1", "id": "sleep", "version": 1, "title": "T",
    "questions": [{"id": "sleep", "text": "Hours", "type": "numeric", "range": [0, 12],
                   "mechanism": {"name": "square_wave", "epsilon": 2}}]})"));
  const char* const names[] = {"mean", "median", "lower_quartile", "upper_quartile"};
  int covered[4] = {0, 0, 0, 0};
  int lowered = 0;
  const int surveys = 40, n = 10000;
  for (int s = 0; s < surveys; ++s) {
    SeededRandom random(7000 + s);
    std::vector<double> answers;
    while (static_cast<int>(answers.size()) < n) {
      const double x = UniformUnit(random) < 0.8 ? 7.0 + StandardNormal(random) : 12.0 * UniformUnit(random);
      if (x >= 0.0 && x <= 12.0) answers.push_back(x);
    }
    SurveyAggregate aggregate(survey);
    for (double x : answers) aggregate.Add(*ParseReport(survey, *PerturbAnswers(survey, json{{"sleep", x}}, random)));
    std::sort(answers.begin(), answers.end());
    const auto quantile = [&answers](double p) {
      const double position = p * static_cast<double>(answers.size() - 1);
      const auto below = static_cast<std::size_t>(position);
      const double t = position - static_cast<double>(below);
      return below + 1 < answers.size() ? (1 - t) * answers[below] + t * answers[below + 1] : answers[below];
    };
    double mean = 0.0;
    for (double x : answers) mean += x / n;
    const double truth[4] = {mean, quantile(0.5), quantile(0.25), quantile(0.75)};
    const json result = SurveyResultsToJson(survey, aggregate)["questions"][0];
    lowered += result["curvature_penalty_rule"] == "marginal_likelihood";
    for (int k = 0; k < 4; ++k) {
      const json& interval = result["statistics"][names[k]];
      covered[k] += interval["low"].get<double>() <= truth[k] && truth[k] <= interval["high"].get<double>();
    }
  }
  MESSAGE("narrow peak, 40 surveys: penalty lowered in " << lowered << "; covered: mean " << covered[0] << ", median "
                                                        << covered[1] << ", lower quartile " << covered[2]
                                                        << ", upper quartile " << covered[3]);
  CHECK(lowered == surveys);
  for (int k = 0; k < 4; ++k) {
    INFO(names[k]);
    CHECK(covered[k] >= 32);
  }
}

TEST_CASE("numeric results with no reports, and invalid options") {
  const Survey survey = TwoNumericQuestions();
  SurveyAggregate aggregate(survey);
  const json results = SurveyResultsToJson(survey, aggregate);
  CHECK(results["questions"][0]["warning"] == "no reports yet");
  CHECK(results["questions"][0]["curvature_penalty"].is_null());  // no values, no penalty yet
  CHECK(results["questions"][0]["fit"].is_null());
  CHECK_FALSE(results["questions"][0].contains("density"));
  NumericEstimateOptions bad;
  bad.estimator = "kde_sqp";
  CHECK(ValidateNumericEstimateOptions(survey.questions[1], bad).error() ==
        "estimator kde_sqp (the RVNS paper's) applies only to rvns questions");
  CHECK(ValidateNumericEstimateOptions(survey.questions[0], bad).ok());
  bad.estimator = "magic";
  CHECK(ValidateNumericEstimateOptions(survey.questions[0], bad).error() ==
        "estimator must be one of pml, ems, em, kde_sqp, but is \"magic\"");
  NumericEstimateOptions costly;
  costly.estimation_cells = 1000;
  costly.replicates = 50;
  CHECK(ValidateNumericEstimateOptions(survey.questions[0], costly).error() ==
        "estimation_cells x replicates must be at most 20000 (the bootstrap's cost), but is 1000 x 50");
  NumericEstimateOptions capped;
  capped.max_iterations = 0;
  CHECK(ValidateNumericEstimateOptions(survey.questions[0], capped).error() ==
        "max_iterations must be between 1 and 100000, but is 0");
  NumericEstimateOptions penalised;
  penalised.curvature_penalty = -1.0;
  CHECK(ValidateNumericEstimateOptions(survey.questions[0], penalised).error() ==
        "curvature_penalty must be a number in [0, 1000000], but is -1");
  penalised.curvature_penalty = 0.5;
  CHECK(ValidateNumericEstimateOptions(survey.questions[0], penalised).ok());
  penalised.estimator = "ems";
  CHECK(ValidateNumericEstimateOptions(survey.questions[0], penalised).error() ==
        "curvature_penalty applies only to estimator pml");
  NumericEstimateOptions narrow;
  narrow.bin_width = 0.0;
  CHECK(ValidateNumericEstimateOptions(survey.questions[0], narrow).error() ==
        "bin_width must be positive and give at most 100000 bins over the range, but is 0");
}

TEST_CASE("numeric results: Duchi's reports give the mean alone; the rest is not shown, with the reason") {
  const Survey survey = *ParseSurvey(json::parse(R"({
    "format": "deniable.survey/v1", "id": "d", "version": 1, "title": "T",
    "questions": [{"id": "du", "text": "Duchi", "type": "numeric", "range": [0, 10],
                   "mechanism": {"name": "duchi", "epsilon": 1}}]})"));
  SurveyAggregate aggregate(survey);
  SeededRandom random(4);
  for (int i = 0; i < 3000; ++i) {
    const double x = TriangleAnswer(random);
    aggregate.Add(*ParseReport(survey, *PerturbAnswers(survey, json{{"du", x}}, random)));
  }
  NumericEstimateOptions options;
  options.replicates = 20;
  const json question = SurveyResultsToJson(survey, aggregate, options)["questions"][0];
  REQUIRE_FALSE(question.contains("error"));
  const json& mean = question["statistics"]["mean"];
  CHECK(mean["low"].get<double>() <= mean["value"].get<double>());
  CHECK(mean["value"].get<double>() <= mean["high"].get<double>());
  CHECK(mean["low"].get<double>() < 5.0);  // the true mean, inside (Duchi's mean is unbiased)
  CHECK(mean["high"].get<double>() > 5.0);
  for (const char* name : {"std_dev", "median", "lower_quartile", "upper_quartile", "skewness", "kurtosis"}) {
    INFO(name);
    const json& statistic = question["statistics"][name];
    CHECK(statistic["value"].is_null());
    CHECK(statistic["low"].is_null());
    CHECK(statistic["high"].is_null());
    CHECK(statistic["note"].get<std::string>().rfind("not identifiable", 0) == 0);
  }
  CHECK(question["density"].is_null());
  CHECK(question["cdf"].is_null());
  CHECK(question["histogram"].is_null());
  CHECK(question["warning"].get<std::string>().rfind("only the mean can be estimated from these reports", 0) == 0);
}

TEST_CASE("numeric results: every statistic's estimate lies inside its interval, and notes are strings or null") {
  const Survey survey = TwoNumericQuestions();
  SurveyAggregate aggregate(survey);
  SeededRandom random(21);
  AddTriangleRespondents(survey, 300, random, aggregate);
  NumericEstimateOptions options;
  options.replicates = 30;
  const json results = SurveyResultsToJson(survey, aggregate, options);
  for (const auto& question : results["questions"]) {
    INFO(question["id"].get<std::string>());
    REQUIRE_FALSE(question.contains("error"));
    CHECK(question["bootstrap"]["world"] == "pilot");
    for (const auto& [name, statistic] : question["statistics"].items()) {
      INFO(name);
      if (statistic["value"].is_null()) {  // withheld: neither interval end, and the reason
        CHECK((name == "skewness" || name == "kurtosis"));
        CHECK(statistic["low"].is_null());
        CHECK(statistic["high"].is_null());
        CHECK(statistic["note"].is_string());
        continue;
      }
      CHECK(statistic["low"].get<double>() <= statistic["value"].get<double>());
      CHECK(statistic["value"].get<double>() <= statistic["high"].get<double>());
      CHECK((statistic["note"].is_null() || statistic["note"].is_string()));
    }
    const json& resolution = question["resolution"];
    CHECK(resolution["spread_low"].get<double>() <= resolution["value"].get<double>());
    CHECK(resolution["value"].get<double>() <= resolution["spread_high"].get<double>());
  }
}

TEST_CASE("numeric results say what their intervals are for: the population, or for the mean these respondents") {
  const Survey survey = TwoNumericQuestions();
  SurveyAggregate aggregate(survey);
  SeededRandom random(4);
  AddTriangleRespondents(survey, 2000, random, aggregate);
  const json population = SurveyResultsToJson(survey, aggregate, json{{"replicates", 10}});
  const json respondents = SurveyResultsToJson(survey, aggregate, json{{"replicates", 10}, {"interval", "respondents"}});
  for (std::size_t q = 0; q < 3; ++q) {
    const json& a = population["questions"][q];
    const json& b = respondents["questions"][q];
    INFO(a["id"].get<std::string>());
    REQUIRE_FALSE(b.contains("error"));
    CHECK(a["interval_for"] == IntervalForJson(IntervalTarget::kPopulation));
    CHECK(b["interval_for"] == IntervalForJson(IntervalTarget::kRespondents));
    for (const auto& [name, statistic] : a["statistics"].items()) {
      if (!statistic["value"].is_null()) CHECK(statistic["interval_for"] == "population");
    }
    const bool closed_form = a["id"] != "rv";  // RVNS's moments come from the bias-aware linear fallback
    const json& mean = b["statistics"]["mean"];
    CHECK(mean["interval_for"] == (closed_form ? "respondents" : "population"));
    CHECK(mean["low"].get<double>() <= mean["value"].get<double>());
    CHECK(mean["value"].get<double>() <= mean["high"].get<double>());
    // The others keep the population's interval and say so.
    const json& median = b["statistics"]["median"];
    CHECK(median["interval_for"] == "population");
    CHECK(median["low"] == a["statistics"]["median"]["low"]);
    CHECK(median["note"].get<std::string>().rfind(kPopulationOnly, 0) == 0);
  }
  // Anything else is refused, naming the choices.
  CHECK(ValidateEstimateOptions(survey, json{{"interval", "sample"}}).error() ==
        "question \"rv\": interval must be \"population\" (the default) or \"respondents\", but is \"sample\"");
}
