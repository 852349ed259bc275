// A randomised yes/no answer as a predictor of an open numeric outcome
// (core/analysis/rr_predictor_fit.h, rr's rrreg.predictor with a linear
// outcome): the gradient is the likelihood's, and the fit recovers known
// parameters within the standard errors it reports.
#include <doctest.h>

#include <cmath>

#include "core/analysis/analysis.h"
#include "core/analysis/rr_predictor_fit.h"
#include "core/common/seeded_random.h"
#include "tests/cpp/support/rr_fake_kinds.h"
#include "tests/cpp/support/rr_simulate.h"

namespace deniable {
namespace {

// x = (1, group, normal); z ~ logistic(x'beta); y = 2 + 1.5 z + 0.5 group - 0.8 normal + sigma N(0, 1).
struct Simulated {
  PredictorProblem problem;
  Eigen::VectorXd truth;
};

Simulated Simulate(int n, double epsilon, std::uint64_t seed) {
  SeededRandom random(seed);
  const Eigen::MatrixXd channel = testing::GrrChannel(2, epsilon);
  Simulated s;
  s.truth.resize(8);
  s.truth << -0.5, 1.0, 0.5, 2.0, 1.5, 0.5, -0.8, std::log(1.2);
  s.problem.x.resize(n, 3);
  s.problem.y.resize(n);
  s.problem.likelihood.resize(n, 2);
  for (int i = 0; i < n; ++i) {
    const double group = Bernoulli(random, 0.4) ? 1.0 : 0.0, normal = testing::StandardNormal(random);
    s.problem.x.row(i) << 1.0, group, normal;
    const double eta = s.truth(0) + s.truth(1) * group + s.truth(2) * normal;
    const int z = Bernoulli(random, 1.0 / (1.0 + std::exp(-eta))) ? 1 : 0;
    s.problem.y(i) = s.truth(3) + s.truth(4) * z + s.truth(5) * group + s.truth(6) * normal +
                     std::exp(s.truth(7)) * testing::StandardNormal(random);
    const int report = testing::DrawCategory(channel.col(z), random);
    s.problem.likelihood.row(i) = channel.row(report);
  }
  return s;
}

TEST_CASE("rr predictor: recovers the effect of a randomised answer on an open outcome (epsilon ln 5)") {
  for (int n : {1000, 5000}) {
    CAPTURE(n);
    const Simulated s = Simulate(n, std::log(5.0), 40 + n);
    auto fit = FitPredictor(s.problem, nullptr);
    REQUIRE(fit);
    REQUIRE(fit->converged);
    REQUIRE(fit->covariance.rows() == 8);
    CHECK(PredictorEffectIndex(3) == 4);
    for (int j = 0; j < 8; ++j) {
      const double se = std::sqrt(fit->covariance(j, j));
      CAPTURE(j);
      CAPTURE(fit->parameters(j));
      CAPTURE(se);
      // Within 4 of its own SEs of the truth: false failure < 1e-4 per parameter.
      CHECK(std::abs(fit->parameters(j) - s.truth(j)) < 4 * se);
    }
  }
}

TEST_CASE("rr predictor: the score is zero at the fit and the information is the likelihood's curvature") {
  const Simulated s = Simulate(800, 1.5, 3);
  auto fit = FitPredictor(s.problem, nullptr);
  REQUIRE(fit);
  REQUIRE(fit->converged);
  const Eigen::MatrixXd information = fit->covariance.inverse();
  const double h = 1e-4;
  for (int a = 0; a < 8; ++a) {
    Eigen::VectorXd up = fit->parameters, down = fit->parameters;
    up(a) += h, down(a) -= h;
    CHECK(std::abs(PredictorLogLikelihood(s.problem, up) - PredictorLogLikelihood(s.problem, down)) / (2 * h) < 1e-3);
    // The diagonal of the information by second differences of the likelihood.
    const double second = -(PredictorLogLikelihood(s.problem, up) - 2 * fit->log_likelihood +
                            PredictorLogLikelihood(s.problem, down)) / (h * h);
    CAPTURE(a);
    CHECK(information(a, a) == doctest::Approx(second).epsilon(1e-2));
  }
}

// The analysis {"regress": open numeric, "on": [randomised yes/no, open...]}
// on test-only kinds (rr_fake_kinds.h): the same fit, its terms and errors.
Survey PredictorSurvey() {
  Survey survey;
  survey.id = "study";
  survey.questions = {
      testing::FakeQuestion("group", std::make_shared<testing::FakeCategorical>(std::vector<std::string>{"a", "b"})),
      testing::FakeQuestion("drugs", std::make_shared<testing::FakeCategorical>(
                                         std::vector<std::string>{"no", "yes"}, testing::GrrChannel(2, std::log(5.0)))),
      testing::FakeQuestion("spend", std::make_shared<testing::FakeNumeric>(Trust::kOpen)),
      testing::FakeQuestion("party", std::make_shared<testing::FakeCategorical>(
                                         std::vector<std::string>{"l", "c", "r"}, testing::GrrChannel(3, 1.0))),
      testing::FakeQuestion("x", std::make_shared<testing::FakeNumeric>(Trust::kOpen))};
  return survey;
}

TEST_CASE("rr predictor analysis: the effect of a randomised answer on an open outcome") {
  const Simulated s = Simulate(2000, std::log(5.0), 8);
  const Survey survey = PredictorSurvey();
  const nlohmann::json spec = {{"regress", "spend"}, {"on", {"drugs", "group", "x"}}};
  auto analysis = ParseAnalysis(survey, spec);
  REQUIRE(analysis);
  PredictorProblem direct;
  direct.x.resize(1999, 3);
  direct.y.resize(1999);
  direct.likelihood.resize(1999, 2);
  for (int i = 0; i < 2000; ++i) {
    const double group = s.problem.x(i, 1), report = s.problem.likelihood(i, 1) > 0.5 ? 1.0 : 0.0;
    Report r;
    r.responses = {std::make_shared<testing::FakeResponse>(group), std::make_shared<testing::FakeResponse>(report),
                   i == 7 ? nullptr : std::make_shared<testing::FakeResponse>(s.problem.y(i)),
                   std::make_shared<testing::FakeResponse>(0.0),
                   std::make_shared<testing::FakeResponse>(s.problem.x(i, 2))};
    (*analysis)->Add(r);
    if (i == 7) continue;
    const int row = i < 7 ? i : i - 1;
    direct.x.row(row) = s.problem.x.row(i);
    direct.y(row) = s.problem.y(i);
    direct.likelihood.row(row) = s.problem.likelihood.row(i);
  }
  auto result = (*analysis)->Estimate(nlohmann::json::object(), nullptr);
  REQUIRE(result);
  const auto& json = *result;
  CHECK(json["n"] == 1999);
  CHECK(json["dropped"] == 1);
  CHECK(json["converged"] == true);
  CHECK(json["predictor"]["question"] == "drugs");
  REQUIRE(json["coefficients"].size() == 7);
  CHECK(json["coefficients"][1]["term"] == "drugs=yes");
  CHECK(json["coefficients"][1]["equation"] == "outcome");
  CHECK(json["coefficients"][2]["term"] == "group=b");
  CHECK(json["coefficients"][3]["term"] == "x");
  CHECK(json["coefficients"][4]["equation"] == "answer");
  CHECK(json["coefficients"][4]["term"] == "(intercept)");
  // The same fit as rr_predictor_fit on the design by hand; parameters in
  // its order: beta (3), gamma_0, gamma_z, delta (2), log sigma.
  auto fit = FitPredictor(direct, nullptr);
  REQUIRE(fit);
  const int order[] = {3, 4, 5, 6, 0, 1, 2};
  for (int j = 0; j < 7; ++j) {
    CAPTURE(j);
    CHECK(json["coefficients"][j]["estimate"].get<double>() == doctest::Approx(fit->parameters(order[j])));
  }
  CHECK(json["sigma"]["estimate"].get<double>() == doctest::Approx(std::exp(fit->parameters(7))));
  // The simulated effect of the true answer is 1.5.
  const auto& effect = json["coefficients"][1];
  CHECK(std::abs(effect["estimate"].get<double>() - 1.5) < 4 * effect["std_error"].get<double>());
  CHECK(json["sigma"]["ci_low"].get<double>() < json["sigma"]["estimate"].get<double>());
  CHECK(json["interval_for"]["target"] == "population");

  auto error = [&](const nlohmann::json& bad) {
    auto parsed = ParseAnalysis(survey, bad);
    REQUIRE_FALSE(parsed);
    return parsed.error();
  };
  CHECK(error({{"regress", "spend"}, {"on", nlohmann::json::array()}}).rfind("analysis.on: must be an array", 0) == 0);
  CHECK(error({{"regress", "spend"}, {"on", {"party"}}}).rfind("analysis.on[0]: question \"party\" is not a randomised yes/no", 0) == 0);
  CHECK(error({{"regress", "spend"}, {"on", {"x", "drugs"}}}).rfind("analysis.on[0]: question \"x\" is not a randomised yes/no", 0) == 0);
  CHECK(error({{"regress", "spend"}, {"on", {"drugs", "party"}}}).rfind("analysis.on[1]: question \"party\" is not asked openly", 0) == 0);
  CHECK(error({{"regress", "spend"}, {"on", {"drugs", "x", "x"}}}) == "analysis.on[2]: question \"x\" is used twice");
}

}  // namespace
}  // namespace deniable
