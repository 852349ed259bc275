// `simulate` from real rows (issue 26, item 6): truths that are a table's rows
// share them, one row per simulated respondent, so questions and a model built
// on them see the same person; a model's truth from records is the table's own
// least-squares fit; questions answered in confidence take such truths and
// make the releases to compare, with their errors and the release advisor.
#include <doctest/doctest.h>

#include <cmath>

#include <nlohmann/json.hpp>

#include "core/survey/simulation.h"
#include "core/survey/survey.h"

using namespace deniable;
using nlohmann::json;

namespace {

json Numeric(const std::string& id, double low, double high) {
  return {{"id", id}, {"text", id}, {"type", "numeric"}, {"range", {low, high}},
          {"mechanism", {{"name", "duchi"}, {"epsilon", 1}}}};
}

Survey Parse(const json& questions) {
  auto survey = ParseSurvey({{"format", "deniable.survey/v1"}, {"id", "rows"}, {"version", 1}, {"title", "Rows"},
                             {"questions", questions}});
  REQUIRE_MESSAGE(survey.ok(), survey.error());
  return std::move(survey).value();
}

SimulationOptions Options(std::int64_t respondents, std::uint64_t seed) {
  SimulationOptions options{respondents, seed, nullptr, 1000000};
  options.estimate["estimator"] = "em";  // the estimates are not under test here
  options.estimate["replicates"] = 10;
  return options;
}

}  // namespace

TEST_CASE("truths sharing a table answer from one row per respondent; alone, each column is resampled on its own") {
  const Survey survey = Parse({Numeric("x", 0, 10), Numeric("y", 0, 10)});
  // Two rows, x = y in each: a respondent whose x and y come from one row has x = y, so the drawn samples agree.
  const json x = {{"values", {0, 10}}}, y = {{"values", {0, 10}}};
  json shared = {{"x", x}, {"y", y}};
  shared["x"]["table"] = shared["y"]["table"] = "people.csv";
  for (std::uint64_t seed : {1, 2, 3}) {
    auto result = Simulate(survey, shared, Options(200, seed));
    REQUIRE_MESSAGE(result.ok(), result.error());
    CHECK((*result)["questions"][0]["truth"]["mean"] == (*result)["questions"][1]["truth"]["mean"]);
  }
  // Drawn on their own (the old behaviour): 200 independent fair picks each; equal means have probability ~0.04.
  int equal = 0;
  for (std::uint64_t seed : {1, 2, 3}) {
    auto result = Simulate(survey, {{"x", x}, {"y", y}}, Options(200, seed));
    REQUIRE(result.ok());
    equal += (*result)["questions"][0]["truth"]["mean"] == (*result)["questions"][1]["truth"]["mean"] ? 1 : 0;
  }
  CHECK(equal < 3);
}

TEST_CASE("a shared table's truths must be rows, and of the same length") {
  const Survey survey = Parse({Numeric("x", 0, 10), Numeric("y", 0, 10)});
  json truth = {{"x", {{"values", {1, 2, 3}}, {"table", "t"}}}, {"y", {{"values", {1, 2}}, {"table", "t"}}}};
  auto result = Simulate(survey, truth, Options(10, 1));
  REQUIRE(!result.ok());
  CHECK(result.error() == "truth.y: 2 rows, but truth.x has 3 rows of the same table \"t\"");
  truth["y"] = {{"distribution", "uniform"}, {"table", "t"}};
  result = Simulate(survey, truth, Options(10, 1));
  REQUIRE(!result.ok());
  CHECK(result.error() == "truth.y.table: this truth is a distribution, not rows of a table");
  truth["y"] = {{"values", {1, 2, 3}}, {"table", 3}};
  CHECK(Simulate(survey, truth, Options(10, 1)).error() == "truth.y.table: must be the name of a table (a non-empty string)");
}

TEST_CASE("a model's truth from a table: its own rows, compared with the table's least-squares fit") {
  const Survey survey = Parse({Numeric("x", 0, 10), Numeric("y", 0, 30),
                               {{"id", "fit"}, {"text", "fit"}, {"type", "linear_regression"}, {"target", "y"},
                                {"features", {"x"}}, {"epsilon", 1}, {"batch", 50}}});
  // y = 1 + 2x + e with e = +-1 alternating: least squares on the table is exactly (1, 2).
  json table = json::array(), xs = json::array(), ys = json::array();
  for (int i = 0; i <= 10; ++i) {
    const double y = 1.0 + 2.0 * i + (i % 2 == 0 ? 1.0 : -1.0) * (i == 10 ? 0.0 : 1.0);
    table.push_back({y, i});
    xs.push_back(i);
    ys.push_back(y);
  }
  // Make the table's fit exact by symmetry: pair each residual with its mirror.
  const json truth = {{"x", {{"values", xs}, {"table", "t"}}},
                      {"y", {{"values", ys}, {"table", "t"}}},
                      {"fit", {{"records", table}, {"table", "t"}}}};
  auto result = Simulate(survey, truth, Options(400, 7));
  REQUIRE_MESSAGE(result.ok(), result.error());
  const json& fit = (*result)["questions"][2];
  CHECK(fit["truth"]["rows"] == 11);
  // The truth is least squares on the whole table, computed here independently.
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (int i = 0; i <= 10; ++i) {
    sx += xs[i].get<double>();
    sy += ys[i].get<double>();
    sxx += xs[i].get<double>() * xs[i].get<double>();
    sxy += xs[i].get<double>() * ys[i].get<double>();
  }
  const double slope = (11 * sxy - sx * sy) / (11 * sxx - sx * sx), intercept = (sy - slope * sx) / 11;
  CHECK(fit["truth"]["coefficients_raw"][0].get<double>() == doctest::Approx(intercept).epsilon(1e-9));
  CHECK(fit["truth"]["coefficients_raw"][1].get<double>() == doctest::Approx(slope).epsilon(1e-9));
  // The drawn rows are the table's: least squares on them is no better than the population's by more than
  // the residuals allow, and the population's error on them is the residuals' mean square (normalised).
  CHECK(fit["errors"]["mse_least_squares"].get<double>() <= fit["errors"]["mse_true"].get<double>() + 1e-12);
  CHECK(fit["errors"]["mse_private"].is_number());
  // A record outside its variable's range is refused, naming it.
  json bad = truth;
  bad["fit"]["records"][3][0] = 31;
  CHECK(Simulate(survey, bad, Options(10, 1)).error() ==
        "truth.fit.records[3][0]: must be a number in its question's range [0, 30], but is 31");
}

TEST_CASE("the model's truth from a CSV table defaults to the columns its variables' truths read") {
  const Survey survey = Parse({Numeric("x", 0, 10), Numeric("y", 0, 30),
                               {{"id", "fit"}, {"text", "fit"}, {"type", "linear_regression"}, {"target", "y"},
                                {"features", {"x"}}, {"epsilon", 1}}});
  const std::vector<std::vector<std::string>> table = {{"educ", "wage"}, {"1", "3"}, {"2", "5"}, {}, {"3", "7.5"}};
  const json entry = {{"csv", "f.csv"}, {"question_columns", {{"x", "educ"}, {"y", "wage"}}}};
  auto records = survey.questions[2].kind->TruthFromTable(table, entry, "truth.fit");
  REQUIRE_MESSAGE(records.ok(), records.error());
  CHECK(*records == json{{"records", {{3, 1}, {5, 2}, {7.5, 3}}}});
  // Named columns win; a variable without a column is named.
  auto named = survey.questions[2].kind->TruthFromTable(table, {{"csv", "f.csv"}, {"columns", {{"y", 0}}}}, "truth.fit");
  REQUIRE(!named.ok());
  CHECK(named.error() == "truth.fit.columns.x: no column \"x\" in the header");
}

TEST_CASE("a question answered in confidence takes rows and makes the releases to compare, with their errors") {
  const Survey survey = Parse({{{"id", "wage"}, {"text", "Wage"}, {"type", "histogram"}, {"range", {0, 100}},
                                {"histograms", {{{"name", "quarters"}, {"bins", 4}}}}, {"privacy", "central"},
                                {"budget", 1}}});
  json values = json::array();
  for (int i = 0; i < 500; ++i) values.push_back((i * 37) % 100 + 0.5);
  json truth = {{"wage", {{"values", values}, {"table", "t"}}}};
  auto result = Simulate(survey, truth, Options(2000, 3));
  REQUIRE_MESSAGE(result.ok(), result.error());
  const json& wage = (*result)["questions"][0];
  REQUIRE(wage["releases"].size() == 3);  // SReB_GCA, DP_BASE and AHP at the whole budget
  std::int64_t counted = 0;
  for (const auto& count : wage["truth"]["counts"]) counted += count.get<std::int64_t>();
  CHECK(counted == 2000);
  for (std::size_t r = 0; r < 3; ++r) {
    const json& errors = wage["errors"]["releases"][r];
    CHECK(wage["releases"][r]["respondents"] == 2000);
    CHECK(errors["method"] == json({"sreb_gca", "dp_base", "ahp"})[r]);
    CHECK(errors["mre"].get<double>() >= 0);
    CHECK(errors["views"][0]["name"] == "quarters");
    // Every published interval (a bin's or a view bin's) holds its truth but rarely misses: 95% each.
    CHECK(errors["views"][0]["intervals"] == 4);
  }
  // DP_BASE's noise is Laplace(2/epsilon) per bin: its mean absolute error is E|N| = 2a/(1 - a^2), a = e^-0.5,
  // about 1.47; over the fine cells the mean of many draws is within 5 standard errors of it.
  const double a = std::exp(-0.5), expected = 2 * a / (1 - a * a);
  const json& dp_base = wage["errors"]["releases"][1];
  const double cells = static_cast<double>(wage["truth"]["counts"].size());
  const double sd = std::sqrt(2 * a * (1 + a * a) / std::pow(1 - a * a, 2) - expected * expected);
  CHECK(std::fabs(dp_base["mae"].get<double>() - expected) < 5 * sd / std::sqrt(cells));
  // The chosen alternatives, each within the budget.
  truth["wage"]["releases"] = {{{"method", "sreb_gca"}, {"epsilon", 0.5}, {"rho", 0.3}}};
  result = Simulate(survey, truth, Options(100, 3));
  REQUIRE(result.ok());
  CHECK((*result)["questions"][0]["releases"][0]["request"] == json{{"method", "sreb_gca"}, {"epsilon", 0.5}, {"rho", 0.3}});
  truth["wage"]["releases"] = {{{"method", "dp_base"}, {"epsilon", 2}}};
  CHECK(Simulate(survey, truth, Options(100, 3)).error() ==
        "truth.wage.releases[0].epsilon: 2 is more than the question's budget of 1");
}

TEST_CASE("a categorical question answered in confidence reads a CSV column of labels or indices") {
  const Survey survey = Parse({{{"id", "drug"}, {"text", "Which?"}, {"type", "categorical"},
                                {"options", {"None", "A", "B"}}, {"privacy", "central"}, {"budget", 1}}});
  const std::vector<std::vector<std::string>> table = {{"id", "drug"}, {"1", "None"}, {"2", "B"}, {"3", "1"}};
  auto entry = survey.questions[0].kind->TruthFromTable(table, {{"csv", "f.csv"}, {"column", "drug"}}, "truth.drug");
  REQUIRE_MESSAGE(entry.ok(), entry.error());
  CHECK(*entry == json{{"values", {0, 2, 1}}});
  const std::vector<std::vector<std::string>> bad = {{"drug"}, {"C"}};
  CHECK(survey.questions[0].kind->TruthFromTable(bad, {{"csv", "f.csv"}, {"column", "drug"}}, "truth.drug").error() ==
        "row 2, column \"drug\": \"C\" is neither an option nor an option's 0-based index");
}

TEST_CASE("the central kind's design advice measures each method per data consumer and recommends the smallest error") {
  const Survey survey = Parse({{{"id", "wage"}, {"text", "Wage"}, {"type", "histogram"}, {"range", {0, 64}},
                                {"histograms", {{{"name", "fine"}, {"bins", 64}}, {{"name", "quarters"}, {"bins", 4}}}},
                                {"privacy", "central"}, {"budget", 1}}});
  const auto advice = survey.questions[0].kind->DesignAdvice(2000);
  REQUIRE(advice.has_value());
  CHECK((*advice)["kind"] == "central_release");
  CHECK((*advice)["n"] == 2000);
  const json& consumers = (*advice)["consumers"];
  REQUIRE(consumers.size() == 3);  // every bin, then each consumer's histogram
  CHECK(consumers[0]["name"] == "bins");
  CHECK(consumers[2]["name"] == "quarters");
  for (const auto& consumer : consumers) {
    const std::string best = consumer["recommended"];
    for (const auto& [method, error] : consumer["errors"].items()) CHECK(consumer["errors"][best].get<double>() <= error.get<double>());
  }
  // DP_BASE's per-bin noise is public: its error on a quarter (16 cells) is the mean |sum of 16 draws|, about
  // sqrt(16 x 2a/(1-a)^2) sqrt(2/pi) (a = e^-0.5) = 8.5 records, a share 0.0042 of 2000; SReB_GCA's averaging over
  // the skewed and sparse shapes' groups adds bias on top: it is never better there.
  const double a = std::exp(-0.5);
  const double dp_base = std::sqrt(16 * 2 * a / ((1 - a) * (1 - a))) * std::sqrt(2 / M_PI) / 2000;
  CHECK(consumers[2]["errors"]["dp_base"].get<double>() == doctest::Approx(dp_base).epsilon(0.15));
  CHECK(consumers[2]["errors"]["sreb_gca"].get<double>() >= consumers[2]["errors"]["dp_base"].get<double>());
  // The same question, the same advice (a fixed seed).
  CHECK(*survey.questions[0].kind->DesignAdvice(2000) == *advice);
}
