// A block's design advice (block_advice.h, issue 27 item 11): each attribute's
// share half-width at its epsilon share, checked against the calibrated variance
// written out here by hand.
#include <doctest/doctest.h>

#include <cmath>
#include <vector>
#include <nlohmann/json.hpp>

#include "tests/cpp/support/design_advice.h"

using namespace deniable;
using nlohmann::json;
using namespace deniable::testing;

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
