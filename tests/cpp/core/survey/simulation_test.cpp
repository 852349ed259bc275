// Simulation: the survey designer's tool runs the real client and server paths.
#include <doctest/doctest.h>

#include <fstream>
#include <sstream>

#include <cmath>

#include "core/distribution/empirical_comparison.h"
#include "core/survey/simulation.h"

using namespace deniable;
using nlohmann::json;

namespace {

json ReadJson(const std::string& relative) {
  std::ifstream file(std::string(DENIABLE_SOURCE_DIR) + "/" + relative);
  std::stringstream text;
  text << file.rdbuf();
  return json::parse(text.str());
}

}  // namespace

TEST_CASE("simulating the demo survey: estimates, truth and errors per question, reproducible") {
  const auto survey = *ParseSurvey(ReadJson("examples/demo-survey.json"));
  const auto truth = ReadJson("examples/demo-truth.json");
  auto first = Simulate(survey, truth, {20000, 7, nullptr, 100000});
  REQUIRE(first.ok());
  CHECK(*Simulate(survey, truth, {20000, 7, nullptr, 100000}) == *first);
  CHECK((*first)["respondents"] == 20000);
  CHECK((*first)["total_epsilon"].get<double>() == doctest::Approx(3.5));
  for (const auto& question : (*first)["questions"]) {
    INFO(question["id"].get<std::string>());
    CHECK(question["n"] == 20000);
    CHECK(question["truth"].size() == question["options"].size());
    // With n = 20000 the 95% intervals are a few points wide: L-inf error well under 0.1.
    CHECK(question["errors"]["linf"].get<double>() < 0.1);
    CHECK(question["errors"]["l1"].get<double>() >= question["errors"]["linf"].get<double>());
    CHECK(question["warning"].is_null());
  }
}

TEST_CASE("simulation reports progress and rejects a bad truth with a clear message") {
  const auto survey = *ParseSurvey(ReadJson("examples/demo-survey.json"));
  std::vector<std::int64_t> progress;
  auto truth = ReadJson("examples/demo-truth.json");
  REQUIRE(Simulate(survey, truth, {300, 1, [&](std::int64_t done) { progress.push_back(done); }, 100}).ok());
  CHECK(progress == std::vector<std::int64_t>{100, 200, 300});

  auto missing = truth;
  missing.erase("stress");
  CHECK(Simulate(survey, missing, {}).error() == "truth.stress: missing (every question needs a truth)");
  auto wrong_length = truth;
  wrong_length["drugs"]["frequencies"] = {1.0};
  CHECK(Simulate(survey, wrong_length, {}).error() ==
        "truth.drugs.frequencies: must be an array of 2 non-negative weights, one per option");
  auto negative = truth;
  negative["drugs"]["frequencies"] = {1.0, -1.0};
  CHECK(Simulate(survey, negative, {}).error() ==
        "truth.drugs.frequencies: weights must be finite and non-negative, found -1.0");
  auto extra = truth;
  extra["other"] = {{"frequencies", {1.0}}};
  CHECK(Simulate(survey, extra, {}).error() == "truth.other: no question with this id");
  CHECK(Simulate(survey, truth, {0, 1, nullptr, 1}).error() ==
        "respondents must be between 1 and 100000000, but is 0");
}

// ---- Numeric questions ----------------------------------------------------

namespace {

json NumericSurveyJson(const json& mechanism, double low = 0.0, double high = 10.0) {
  return {{"format", "deniable.survey/v1"},
          {"id", "numeric"},
          {"version", 1},
          {"title", "Numeric"},
          {"questions",
           {{{"id", "x"}, {"text", "x?"}, {"type", "numeric"}, {"range", {low, high}}, {"mechanism", mechanism}}}}};
}

Survey NumericSurvey(const json& mechanism) { return *ParseSurvey(NumericSurveyJson(mechanism)); }

const json kSquareWave = {{"name", "square_wave"}, {"epsilon", 3.0}};
const json kRvns = {{"name", "rvns"}, {"window", 2.0}, {"values", 2}, {"window_mode", "fresh"}};

std::string TruthError(const json& entry) {
  auto result = Simulate(NumericSurvey(kSquareWave), {{"x", entry}}, {10, 1, nullptr, 100});
  return result ? "ok" : result.error();
}

SimulationOptions Fast(std::int64_t respondents, std::uint64_t seed) {
  SimulationOptions options{respondents, seed, nullptr, 1000000};
  options.estimate["replicates"] = 10;  // the bootstrap is not under test here
  return options;
}

}  // namespace

TEST_CASE("numeric truths are validated strictly, naming the field") {
  CHECK(TruthError({{"distribution", "normal"}, {"mean", 5}, {"sd", 1}}) == "ok");
  CHECK(TruthError({{"distribution", "uniform"}}) == "ok");
  CHECK(TruthError({{"distribution", "chi_square"}, {"df", 3}}) == "ok");
  CHECK(TruthError({{"values", {0, 2.5, 10}}}) == "ok");
  CHECK(TruthError(json::array()) == "truth.x must be a JSON object, but is array");
  CHECK(TruthError(json::object()) ==
        "truth.x: must have \"distribution\" (uniform, normal, chi_square, mixture), \"csv\" or \"values\"");
  CHECK(TruthError({{"distribution", "gamma"}}) ==
        "truth.x.distribution: must be \"uniform\", \"normal\", \"chi_square\" or \"mixture\", but is \"gamma\"");
  CHECK(TruthError({{"distribution", "normal"}, {"mean", 5}}) == "truth.x.sd: required field is missing");
  CHECK(TruthError({{"distribution", "normal"}, {"mean", 5}, {"sd", 0}}) ==
        "truth.x.sd: must be a finite number > 0, but is 0");
  CHECK(TruthError({{"distribution", "normal"}, {"mean", "5"}, {"sd", 1}}) ==
        "truth.x.mean: must be a finite number, but is \"5\"");
  CHECK(TruthError({{"distribution", "normal"}, {"mean", 5}, {"sd", 1}, {"sigma", 1}}).find("truth.x") == 0);
  CHECK(TruthError({{"distribution", "chi_square"}, {"df", 0}}).rfind("truth.x.df: ", 0) == 0);
  CHECK(TruthError({{"distribution", "chi_square"}, {"df", 2.5}}).rfind("truth.x.df: ", 0) == 0);
  CHECK(TruthError({{"distribution", "chi_square"}, {"df", 3}, {"scale", -1}}) ==
        "truth.x.scale: must be a finite number > 0, but is -1");
  CHECK(TruthError({{"distribution", "uniform"}, {"weight", 1}}) ==
        "truth.x.weight: only mixture components have a weight");
  CHECK(TruthError({{"distribution", "mixture"}, {"components", json::array()}}) ==
        "truth.x.components: must be a non-empty array of {\"weight\": w, \"distribution\": ...}");
  CHECK(TruthError({{"distribution", "mixture"}, {"components", {{{"distribution", "uniform"}}}}}) ==
        "truth.x.components[0].weight: required field is missing");
  CHECK(TruthError({{"distribution", "mixture"},
                    {"components", {{{"weight", 1}, {"distribution", "mixture"}, {"components", json::array()}}}}}) ==
        "truth.x.components[0].distribution: a mixture component cannot be a mixture");
  CHECK(TruthError({{"values", {1, 11}}}) ==
        "truth.x.values[1]: must be a number in the question's range [0, 10], but is 11");
  CHECK(TruthError({{"values", json::array()}}) == "truth.x.values: must be a non-empty array of numbers");
  CHECK(TruthError({{"csv", "a.csv"}, {"column", 0}}) ==
        "truth.x.csv: CSV truths are read by the command-line tool; core takes their values as {\"values\": [...]}");
  // A normal far outside the range has no mass to truncate to.
  CHECK(TruthError({{"distribution", "normal"}, {"mean", 1000}, {"sd", 1}}) ==
        "truth.x: 100000 draws in a row fell outside the question's range [0, 10]: the distribution has (almost) "
        "no mass there");
}

TEST_CASE("numeric simulation: truth and errors per question, reproducible with the seed") {
  const auto survey = NumericSurvey(kSquareWave);
  const json truth = {{"x", {{"distribution", "normal"}, {"mean", 4}, {"sd", 1.5}}}};
  auto first = Simulate(survey, truth, Fast(2000, 11));
  REQUIRE(first.ok());
  CHECK(*Simulate(survey, truth, Fast(2000, 11)) == *first);
  CHECK(*Simulate(survey, truth, Fast(2000, 12)) != *first);
  const json& question = (*first)["questions"][0];
  CHECK(question["n"] == 2000);
  for (const char* field : {"mean", "std_dev", "median", "lower_quartile", "upper_quartile"}) {
    INFO(field);
    REQUIRE(question["truth"][field].is_number());
    CHECK(question["truth"][field].get<double>() >= 0.0);
    CHECK(question["truth"][field].get<double>() <= 10.0);
  }
  // The sample mean of 2000 draws of a (slightly truncated) N(4, 1.5^2): SE 1.5 / sqrt(2000) = 0.034.
  CHECK(std::fabs(question["truth"]["mean"].get<double>() - 4.0) < 5 * 0.034);
  CHECK(std::fabs(question["truth"]["std_dev"].get<double>() - 1.5) < 0.1);
  const json& errors = question["errors"];
  for (const char* field : {"wasserstein1", "mean", "std_dev", "median"}) {
    INFO(field);
    CHECK(errors[field].get<double>() >= 0.0);
  }
  CHECK(errors["mean"].get<double>() ==
        doctest::Approx(std::fabs(question["statistics"]["mean"]["value"].get<double>() -
                                  question["truth"]["mean"].get<double>())));
  CHECK(errors["mean_covered"].is_boolean());
  CHECK(errors["unbiased_mean_covered"].is_null());  // Square Wave's reports are not unbiased
}

TEST_CASE("numeric simulation: each mean's interval is checked against its own target (issue 26)") {
  // A truth whose population mean is known: {"values": [2, 8]} has mean 5
  // exactly, while 300 respondents' own mean is 5 +- 0.17.
  const json truth = {{"x", {{"values", {2, 8}}}}};
  const auto survey = NumericSurvey({{"name", "laplace"}, {"epsilon", 3.0}});
  for (const char* target : {"population", "respondents"}) {
    INFO(target);
    SimulationOptions options = Fast(300, 5);
    options.estimate["interval"] = target;
    auto result = Simulate(survey, truth, options);
    REQUIRE(result.ok());
    const json& question = (*result)["questions"][0];
    CHECK(question["interval_for"]["target"] == target);
    CHECK(question["population_truth"]["mean"].get<double>() == doctest::Approx(5.0).epsilon(0.01));
    const json& mean = question["statistics"]["mean"];
    CHECK(mean["interval_for"] == target);  // Laplace's moments give the mean for these respondents
    const double wanted = question[std::string(target) == "population" ? "population_truth" : "truth"]["mean"].get<double>();
    CHECK(question["errors"]["mean_covered"].get<bool>() ==
          (mean["low"].get<double>() <= wanted && wanted <= mean["high"].get<double>()));
    // The unbiased mean's interval is the population's whichever is asked.
    CHECK(question["unbiased_mean"]["interval_for"] == "population");
  }
}

TEST_CASE("an empirical truth ({\"values\"}) draws only its values") {
  auto result = Simulate(NumericSurvey(kSquareWave), {{"x", {{"values", {2, 8}}}}}, Fast(1000, 3));
  REQUIRE(result.ok());
  const json& truth = (*result)["questions"][0]["truth"];
  // Every answer is 2 or 8: both quartiles are 2 or 8, and the mean is 2 + 6 p with p ~ 0.5.
  for (const char* field : {"lower_quartile", "upper_quartile"}) {
    const double q = truth[field].get<double>();
    CHECK((q == 2.0 || q == 8.0));
  }
  CHECK(std::fabs(truth["mean"].get<double>() - 5.0) < 6 * 5 * std::sqrt(0.25 / 1000));  // 5 SE of 6 p
}

// At large n the reconstruction converges to the truth up to the estimator's
// smoothing bias. The reference is the W1 of an uninformative estimate (the
// uniform distribution on [0, 10]) to the same truth, N(4, 1.5^2): about
// 1.9 (= integral of |F_uniform - F_normal|). A useful reconstruction must be
// far closer: we require under 1/8 of it (0.24, 2.4% of the range).
// Measured (n = 20000, seed 5): square_wave 0.030, rvns 0.072.
TEST_CASE("the reconstructed distribution is close to the truth in W1 at large n (square_wave, rvns)") {
  const json truth = {{"x", {{"distribution", "normal"}, {"mean", 4}, {"sd", 1.5}}}};
  for (const json& mechanism : {kSquareWave, kRvns}) {
    auto result = Simulate(NumericSurvey(mechanism), truth, Fast(20000, 5));
    REQUIRE(result.ok());
    const double w1 = (*result)["questions"][0]["errors"]["wasserstein1"].get<double>();
    INFO(mechanism.dump() << ": W1 " << w1);
    CHECK(w1 < 0.24);
    CHECK(w1 > 0.0);
  }
}

TEST_CASE("W1 between a grid distribution and a sample, and the sample summary, are exact") {
  const NumericRange unit{0.0, 1.0};
  // F(x) = x against a point mass at 0.5: 2 * integral_0^0.5 x dx = 0.25.
  CHECK(Wasserstein1ToSample({unit, {1.0}}, {0.5}) == doctest::Approx(0.25).epsilon(1e-15));
  // All mass uniform on [0, 0.5] against a point mass at 0.25: 0.0625 on each side.
  CHECK(Wasserstein1ToSample({unit, {1.0, 0.0}}, {0.25}) == doctest::Approx(0.125).epsilon(1e-15));
  // Samples at both ends: G = 1/2 on [0, 1), so the integral of |x - 1/2| = 0.25.
  CHECK(Wasserstein1ToSample({unit, {0.5, 0.5}}, {0.0, 1.0}) == doctest::Approx(0.25).epsilon(1e-15));
  // In the data's units: the same shapes on [0, 10] scale by 10.
  CHECK(Wasserstein1ToSample({{0.0, 10.0}, {1.0}}, {5.0}) == doctest::Approx(2.5).epsilon(1e-15));
  // A sample at every cell centre: in each cell |F - G| is two triangles with
  // base 0.125 and height 0.125, so W1 = 4 cells x 2 x (0.125 x 0.125 / 2) = 0.0625.
  CHECK(Wasserstein1ToSample({unit, {0.25, 0.25, 0.25, 0.25}}, {0.125, 0.375, 0.625, 0.875}) ==
        doctest::Approx(0.0625).epsilon(1e-12));

  const SampleSummary summary = SummarizeSample({1.0, 2.0, 3.0, 4.0});
  CHECK(summary.mean == 2.5);
  CHECK(summary.standard_deviation == doctest::Approx(std::sqrt(1.25)).epsilon(1e-15));
  CHECK(summary.median == 2.5);
  CHECK(summary.lower_quartile == 1.75);  // type 7: h = 1 + 3 * 0.25 = 1.75
  CHECK(summary.upper_quartile == 3.25);
}

TEST_CASE("numeric estimator options reach the results; invalid ones are rejected naming the question") {
  const json truth = {{"x", {{"distribution", "uniform"}}}};
  auto options = Fast(500, 2);
  options.estimate["estimator"] = "kde_sqp";
  auto rvns = Simulate(NumericSurvey(kRvns), truth, options);
  REQUIRE(rvns.ok());
  CHECK((*rvns)["questions"][0]["estimator"] == "kde_sqp");
  CHECK((*rvns)["questions"][0]["errors"]["wasserstein1"].is_number());
  CHECK(Simulate(NumericSurvey(kSquareWave), truth, options).error() ==
        "question x: estimator kde_sqp (the RVNS paper's) applies only to rvns questions");
}
