// Issue 27 item 11: the builder's precision guidance for numeric, block and
// model questions (each kind's DesignAdvice), checked against the variance
// formulas written out here by hand, and for one mechanism against a
// Monte-Carlo run of the mean it predicts.
#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/common/seeded_random.h"
#include "core/kinds/linear_regression/model_definition.h"
#include "core/numeric/numeric_mechanism_factory.h"
#include "core/survey/survey.h"

using namespace deniable;
using nlohmann::json;

namespace {

constexpr double kZ = 1.959963984540054;

json SurveyOf(json questions) {
  return {{"format", "deniable.survey/v1"}, {"id", "advice"}, {"version", 1}, {"title", "A"}, {"questions", questions}};
}

json Numeric(const std::string& id, double low, double high, json mechanism) {
  return {{"id", id}, {"text", id}, {"type", "numeric"}, {"range", {low, high}}, {"mechanism", mechanism}};
}

json AdviceOf(const json& definition, const std::string& id, std::int64_t n) {
  auto survey = ParseSurvey(definition);
  REQUIRE_MESSAGE(survey.ok(), (survey.ok() ? "" : survey.error()));
  for (const auto& question : survey->questions) {
    if (question.id == id) {
      auto advice = question.kind->DesignAdvice(n);
      return advice ? *advice : json(nullptr);
    }
  }
  FAIL("no question " << id);
  return nullptr;
}

const json& RowOf(const json& advice, const std::string& mechanism) {
  for (const json& row : advice["rows"]) {
    if (row["mechanism"] == mechanism) return row;
  }
  FAIL("no row " << mechanism);
  static const json none;
  return none;
}

}  // namespace

TEST_CASE("numeric advice: every mechanism's mean half-width at the question's epsilon, from its variance formula") {
  const std::int64_t n = 1000;
  const double width = 100.0;
  const json advice = AdviceOf(SurveyOf({Numeric("pay", 0, 100, {{"name", "square_wave"}, {"epsilon", 1}})}), "pay", n);
  REQUIRE(advice.is_object());
  CHECK(advice["kind"] == "numeric_mean");
  CHECK(advice["epsilon"] == 1.0);
  CHECK(advice["current"] == "square_wave");
  CHECK(advice["interval_for"]["target"] == "population");
  CHECK(advice["rows"].size() == 5);
  // Laplace: y = x + Lap(w / eps), Var = 2 (w / eps)^2 for every answer; the population adds the answers' own,
  // (b - a)^2 / 12 evenly spread, at most (b - a)^2 / 4.
  const json& laplace = RowOf(advice, "laplace");
  CHECK(laplace["epsilon"] == 1.0);
  const double laplace_noise = 2.0 * width * width;
  CHECK(laplace["std_error"].get<double>() == doctest::Approx(std::sqrt((laplace_noise + width * width / 12.0) / n)));
  CHECK(laplace["ci_half_width"].get<double>() == doctest::Approx(kZ * std::sqrt((laplace_noise + width * width / 12.0) / n)));
  CHECK(laplace["ci_half_width_worst"].get<double>() == doctest::Approx(kZ * std::sqrt((laplace_noise + width * width / 4.0) / n)));
  // Piecewise: (w/2)^2 (t^2/(s - 1) + (s + 3)/(3 (s - 1)^2)), s = e^(eps/2), t ~ U[-1, 1] (E t^2 = 1/3);
  // the worst answer is at an end (t^2 = 1).
  const double s = std::exp(0.5);
  const double half = width / 2.0;
  const double piecewise_mean = half * half * ((1.0 / 3.0) / (s - 1.0) + (s + 3.0) / (3.0 * (s - 1.0) * (s - 1.0)));
  const double piecewise_worst = half * half * (1.0 / (s - 1.0) + (s + 3.0) / (3.0 * (s - 1.0) * (s - 1.0)));
  const json& piecewise = RowOf(advice, "piecewise");
  CHECK(piecewise["ci_half_width"].get<double>() == doctest::Approx(kZ * std::sqrt((piecewise_mean + width * width / 12.0) / n)).epsilon(1e-5));
  CHECK(piecewise["ci_half_width_worst"].get<double>() == doctest::Approx(kZ * std::sqrt((piecewise_worst + width * width / 4.0) / n)));
  // Respondents for +-5% of the range: the variance over (0.05 w / z)^2.
  CHECK(piecewise["respondents_for_5_percent"].get<double>() ==
        std::ceil((piecewise_mean + width * width / 12.0) / std::pow(0.05 * width / kZ, 2)));
  // Duchi: (w/2)^2 (B^2 - t^2), B = (e^eps + 1)/(e^eps - 1); worst at t = 0.
  const double bound = (std::exp(1.0) + 1.0) / (std::exp(1.0) - 1.0);
  const json& duchi = RowOf(advice, "duchi");
  CHECK(duchi["ci_half_width"].get<double>() == doctest::Approx(kZ * std::sqrt((half * half * (bound * bound - 1.0 / 3.0) + width * width / 12.0) / n)).epsilon(1e-5));
  CHECK(duchi["ci_half_width_worst"].get<double>() == doctest::Approx(kZ * std::sqrt((half * half * bound * bound + width * width / 4.0) / n)));
  // The recommendation is the smallest half-width of the rows.
  std::string smallest;
  double least = INFINITY;
  for (const json& row : advice["rows"]) {
    REQUIRE(row["std_error"].is_number());
    if (row["std_error"].get<double>() < least) least = row["std_error"].get<double>(), smallest = row["mechanism"];
  }
  CHECK(advice["best"] == smallest);
  CHECK(advice["best"] != "laplace");  // Laplace's noise is the largest at eps = 1
}

TEST_CASE("numeric advice: RVNS with a formal epsilon gets a row without numbers; the published RVNS gets none") {
  const json rvns = {{"name", "rvns"}, {"window", 10}, {"values", 2}, {"window_mode", "shared"}, {"uniform_probability", 0.25}};
  const json advice = AdviceOf(SurveyOf({Numeric("age", 0, 100, rvns)}), "age", 500);
  REQUIRE(advice.is_object());
  CHECK(advice["current"] == "rvns");
  CHECK(advice["rows"][0]["mechanism"] == "rvns");
  CHECK(advice["rows"][0]["std_error"].is_null());
  CHECK(advice["rows"].size() == 6);
  CHECK(advice["best"] != "rvns");
  json published = rvns;
  published.erase("uniform_probability");
  CHECK(AdviceOf(SurveyOf({Numeric("age", 0, 100, published)}), "age", 500).is_null());
}

TEST_CASE("numeric advice: Piecewise's predicted half-width of the population mean holds in a simulation") {
  // 600 surveys of 500 respondents drawn from U[0, 100]: the spread of their report means against the
  // predicted standard error. The sample standard deviation of R normal values has relative standard error
  // 1/sqrt(2 (R - 1)); 4 of those is the tolerance.
  const std::int64_t n = 500;
  const int surveys = 600;
  const json advice = AdviceOf(SurveyOf({Numeric("x", 0, 100, {{"name", "piecewise"}, {"epsilon", 1}})}), "x", n);
  const double predicted = RowOf(advice, "piecewise")["std_error"].get<double>();
  auto mechanism = ParseNumericMechanism({{"name", "piecewise"}, {"epsilon", 1}}, {0.0, 100.0}, "m");
  REQUIRE(mechanism.ok());
  SeededRandom random(2711);
  std::vector<double> means;
  for (int r = 0; r < surveys; ++r) {
    double sum = 0.0;
    for (std::int64_t i = 0; i < n; ++i) {
      const double answer = 100.0 * UniformUnit(random);
      sum += (*mechanism)->Perturb(answer, random).value()[0];
    }
    means.push_back(sum / static_cast<double>(n));
  }
  double average = 0.0;
  for (double mean : means) average += mean / surveys;
  double squares = 0.0;
  for (double mean : means) squares += (mean - average) * (mean - average);
  const double measured = std::sqrt(squares / (surveys - 1));
  MESSAGE("predicted standard error " << predicted << ", measured " << measured);
  CHECK(std::fabs(measured / predicted - 1.0) < 4.0 / std::sqrt(2.0 * (surveys - 1)));
  CHECK(std::fabs(average - 50.0) < 4.0 * predicted / std::sqrt(surveys));
}

TEST_CASE("block advice: each attribute's share half-width at its epsilon share, from the calibrated variance") {
  json attributes = json::array();
  attributes.push_back({{"id", "smoker"}, {"text", "Smoker?"}, {"options", {"yes", "no"}}});
  attributes.push_back({{"id", "region"}, {"text", "Region?"}, {"options", {"n", "e", "s", "w"}}});
  const json block = {{"id", "about"}, {"text", "About you"}, {"type", "block"}, {"attributes", attributes},
                      {"mechanism", {{"name", "pmoue"}, {"epsilon_per_attribute", 1}}}};
  const std::int64_t n = 2000;
  const json advice = AdviceOf(SurveyOf({block}), "about", n);
  REQUIRE(advice.is_object());
  CHECK(advice["kind"] == "block_shares");
  REQUIRE(advice["attributes"].size() == 2);
  const json& smoker = advice["attributes"][0];
  const json& region = advice["attributes"][1];
  CHECK(smoker["id"] == "smoker");
  CHECK(smoker["choices"][0]["sensitivity"] == "usual");
  CHECK(smoker["choices"][0]["epsilon"].get<double>() == doctest::Approx(1.0));
  // More private on one of two attributes: weights 1/2 and 1 share 2 e, so 2/3 and 4/3.
  CHECK(smoker["choices"][1]["sensitivity"] == "more_private");
  CHECK(smoker["choices"][1]["epsilon"].get<double>() == doctest::Approx(2.0 / 3.0));
  CHECK(smoker["choices"][2]["epsilon"].get<double>() == doctest::Approx(4.0 / 3.0));
  // A share near 0, calibrated (block_marginals.h with c = 0, k = -1/(l - 1)):
  //   two options: Var(count) = (s/4) / (1/2 - q)^2;
  //   four options: s (2 q (1 - q)/3 + 1/36) / (1/2 - q)^2; the sampling adds nothing at f = 0.
  const double q = 1.0 / (std::exp(1.0) + 1.0);
  const double gap = 0.5 - q;
  const double two = (n / 4.0) / (gap * gap) / (double(n) * n);
  const double four = n * (2.0 * q * (1.0 - q) / 3.0 + 1.0 / 36.0) / (gap * gap) / (double(n) * n);
  CHECK(smoker["choices"][0]["ci_half_width"].get<double>() == doctest::Approx(kZ * std::sqrt(two)));
  CHECK(region["choices"][0]["ci_half_width"].get<double>() == doctest::Approx(kZ * std::sqrt(four)));
  // At a smaller share the error grows; the largest over shares bounds the one near 0.
  const double q_private = 1.0 / (std::exp(2.0 / 3.0) + 1.0);
  CHECK(smoker["choices"][1]["ci_half_width"].get<double>() ==
        doctest::Approx(kZ * std::sqrt(0.25 / (n * (0.5 - q_private) * (0.5 - q_private)))));
  for (const json& attribute : advice["attributes"]) {
    for (const json& choice : attribute["choices"]) {
      CHECK(choice["ci_half_width_worst"].get<double>() >= choice["ci_half_width"].get<double>());
    }
  }
  // Two options at a share f (count f n): k = -(1 - f), v = f n/4 + (1 - f) n q (1 - q), V_R = n/4 + n q (1 - q);
  // Var = (v (1 - 2 (1 - f)) + (1 - f)^2 V_R)/gap^2 + n f (1 - f), largest over f on a grid of 1/200.
  double worst = 0.0;
  for (int i = 0; i <= 200; ++i) {
    const double f = i / 200.0;
    const double v = f * n / 4.0 + (1.0 - f) * n * q * (1.0 - q);
    const double rows = n / 4.0 + n * q * (1.0 - q);
    const double count = std::max(0.0, v * (1.0 - 2.0 * (1.0 - f)) + (1.0 - f) * (1.0 - f) * rows) / (gap * gap);
    worst = std::max(worst, (count + n * f * (1.0 - f)) / (double(n) * n));
  }
  CHECK(smoker["choices"][0]["ci_half_width_worst"].get<double>() == doctest::Approx(kZ * std::sqrt(worst)));
}

TEST_CASE("model advice: rounds, chains and the coefficients' rough error from the gradient noise") {
  const json x = Numeric("x", 0, 10, {{"name", "square_wave"}, {"epsilon", 1}});
  const json y = Numeric("y", 0, 100, {{"name", "square_wave"}, {"epsilon", 1}});
  const json model = {{"id", "fit"}, {"text", "fit"}, {"type", "linear_regression"}, {"target", "y"},
                      {"features", {"x"}}, {"epsilon", 1}, {"batch", 100}, {"ridge", 0}};
  const std::int64_t n = 10000;
  const json advice = AdviceOf(SurveyOf({x, y, model}), "fit", n);
  REQUIRE(advice.is_object());
  CHECK(advice["kind"] == "model_rounds");
  CHECK(advice["batch"] == 100);
  CHECK(advice["chains"] == 8);
  CHECK(advice["rounds"] == 100);
  CHECK(advice["rounds_per_chain"] == 12);
  // 100 rounds over 8 chains: 4 chains of 13 and 4 of 12; each averages its last half: 4 * 7 + 4 * 6.
  CHECK(advice["averaged_rounds"] == 52);
  CHECK(advice["respondents_per_chain_step"] == 800);
  CHECK(advice["interval"] == true);
  // Rough: Var(b_j) = (d + 1) v clip^2 / (G A h_j^2), v = Piecewise's least Var(y | t) on [-1, 1] (t = 0),
  // h = 2 for the intercept and 2/3 for a slope (features spread evenly on [-1, 1]).
  const double s = std::exp(0.5);
  const double v = (s + 3.0) / (3.0 * (s - 1.0) * (s - 1.0));
  const double noise = 2.0 * v / (100.0 * 52.0);
  const double intercept = std::sqrt(noise) / 2.0;
  const double slope = std::sqrt(noise) / (2.0 / 3.0);
  const json& coefficients = advice["coefficients"];
  REQUIRE(coefficients.size() == 2);
  CHECK(coefficients[0]["name"] == "intercept");
  CHECK(coefficients[0]["std_error"].get<double>() == doctest::Approx(intercept).epsilon(1e-6));
  CHECK(coefficients[1]["std_error"].get<double>() == doctest::Approx(slope).epsilon(1e-6));
  // The interval the results will show is t(7) standard errors wide.
  CHECK(coefficients[1]["ci_half_width"].get<double>() == doctest::Approx(2.3646 * slope).epsilon(1e-4));
  // In units: the slope scales by w_y / w_x = 10; the raw intercept y = 50 (1 + b0 - b1) - 10 b1 * 0 ... mixes both:
  // a_y + (w_y/2)(1 + b0 - b1) - s1 a_x with a_x = 0: d/db0 = 50, d/db1 = -50.
  CHECK(coefficients[1]["std_error_units"].get<double>() == doctest::Approx(10.0 * slope).epsilon(1e-6));
  CHECK(coefficients[0]["std_error_units"].get<double>() ==
        doctest::Approx(std::sqrt(2500.0 * intercept * intercept + 2500.0 * slope * slope)).epsilon(1e-6));
  // Fewer respondents than one round per chain: no interval, and no error before a round completes.
  const json few = AdviceOf(SurveyOf({x, y, model}), "fit", 500);
  CHECK(few["interval"] == false);
  CHECK(few["rounds"] == 5);
  const json none = AdviceOf(SurveyOf({x, y, model}), "fit", 50);
  CHECK(none["coefficients"][0]["std_error"].is_null());
}
