// A numeric question's design advice (numeric_advice.h, issue 27 item 11): the
// mean's half-width under every mechanism, checked against the variance
// formulas written out here by hand, and for one mechanism against a
// Monte-Carlo run of the mean it predicts.
#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/common/seeded_random.h"
#include "core/numeric/numeric_mechanism_factory.h"
#include "core/survey/survey.h"
#include "tests/cpp/support/design_advice.h"

using namespace deniable;
using nlohmann::json;
using namespace deniable::testing;

namespace {

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
