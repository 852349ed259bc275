// A model's design advice (model_advice.h, issue 27 item 11): rounds, chains
// and the coefficients' rough error from the gradient noise, checked against the
// formulas written out here by hand.
#include <doctest/doctest.h>

#include <cmath>
#include <vector>
#include <nlohmann/json.hpp>

#include "tests/cpp/support/design_advice.h"

using namespace deniable;
using nlohmann::json;
using namespace deniable::testing;

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
