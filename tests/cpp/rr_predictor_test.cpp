// A randomised yes/no answer as a predictor of an open numeric outcome
// (core/analysis/rr_predictor_fit.h, rr's rrreg.predictor with a linear
// outcome): the gradient is the likelihood's, and the fit recovers known
// parameters within the standard errors it reports.
#include <doctest.h>

#include <cmath>

#include "core/analysis/rr_predictor_fit.h"
#include "core/common/seeded_random.h"
#include "rr_simulate.h"

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

}  // namespace
}  // namespace deniable
