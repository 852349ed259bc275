// The maximum likelihood fit of a logistic (multinomial) regression seen
// through a randomisation channel (core/analysis/channel_logit_fit.h): its
// likelihood is rr's rrreg's, its derivatives are right, and it recovers known
// coefficients within the standard errors it reports.
#include <doctest.h>

#include <cmath>

#include "core/analysis/channel_logit_fit.h"
#include "core/frequency/categorical_mechanism.h"
#include "core/survey/question_kind.h"
#include "tests/cpp/support/rr_simulate.h"

namespace deniable {
namespace {

using testing::GrrChannel;
using testing::SimulateRegression;

Eigen::MatrixXd Coefficients(std::initializer_list<double> values, int columns = 1) {
  Eigen::VectorXd v(static_cast<Eigen::Index>(values.size()));
  int i = 0;
  for (double value : values) v(i++) = value;
  return Eigen::Map<Eigen::MatrixXd>(v.data(), v.size() / columns, columns);
}

// Every coefficient within 4 of its own reported standard errors of the
// truth: a false failure has probability < 1e-4 per coefficient when the SEs
// are right (and the fit fails the test when they are too small).
void CheckRecovers(const ChannelLogitFit& fit, const Eigen::MatrixXd& truth) {
  REQUIRE(fit.converged);
  REQUIRE_FALSE(fit.at_boundary);
  REQUIRE(fit.covariance.rows() == truth.size());
  for (Eigen::Index index = 0; index < truth.size(); ++index) {
    const double se = std::sqrt(fit.covariance(index, index));
    const double estimate = fit.coefficients(index % truth.rows(), index / truth.rows());
    const double target = truth(index % truth.rows(), index / truth.rows());
    CAPTURE(index);
    CAPTURE(estimate);
    CAPTURE(target);
    CAPTURE(se);
    CHECK(std::abs(estimate - target) < 4 * se);
  }
}

TEST_CASE("rr regression: the log-likelihood is rrreg's forced-response formula") {
  // rr's forced design p = 2/3 truthful, p1 = 1/6 forced yes, p0 = 1/6 forced
  // no: P(yes | x) = c g(x) + d with c = p, d = p1 (rr's rrcd). The channel
  // rows: a "yes" is (p1, p + p1), a "no" (p + p0, p0).
  const double p = 2.0 / 3, p1 = 1.0 / 6, p0 = 1.0 / 6;
  Eigen::MatrixXd channel(2, 2);
  channel << p + p0, p0,  //
      p1, p + p1;
  const Eigen::MatrixXd beta = Coefficients({-0.7, 0.9, 0.4});
  const auto data = SimulateRegression(400, beta, channel, 0.4, 11);
  const Eigen::MatrixXd at = Coefficients({-0.3, 0.5, -0.2});
  double rrreg = 0;
  for (int i = 0; i < 400; ++i) {
    const double g = 1.0 / (1.0 + std::exp(-data.randomised.x.row(i).dot(at.col(0))));
    const double yes = p * g + p1;
    rrreg += data.reports[i] == 1 ? std::log(yes) : std::log(1 - yes);
  }
  CHECK(ChannelLogitLogLikelihood(data.randomised, at) == doctest::Approx(rrreg).epsilon(1e-12));

  SUBCASE("the forced design is GRR with k = 2 at epsilon ln 5") {
    auto grr = CreateCategoricalMechanism({CategoricalKind::kGrr, 2, std::log(5.0), 1});
    REQUIRE(grr);
    CHECK((*grr)->probabilities().p == doctest::Approx(p + p1).epsilon(1e-12));
    CHECK((*grr)->probabilities().q == doctest::Approx(p1).epsilon(1e-12));
    CHECK(GrrChannel(2, std::log(5.0)).isApprox(channel, 1e-12));
  }
}

TEST_CASE("rr regression: the information is minus the log-likelihood's numerical Hessian") {
  const Eigen::MatrixXd beta = Coefficients({-0.5, 0.3, 0.8, 0.2, -0.4, 0.5}, 2);
  const auto data = SimulateRegression(3000, beta, GrrChannel(3, 2.0), 0.5, 5);
  auto fit = FitChannelLogit(data.randomised, nullptr);
  REQUIRE(fit);
  REQUIRE(fit->converged);
  REQUIRE(fit->covariance.size() == 36);
  const Eigen::MatrixXd information = fit->covariance.inverse();
  const double h = 1e-4;
  auto loglik = [&](Eigen::VectorXd theta) {
    return ChannelLogitLogLikelihood(data.randomised, Eigen::Map<Eigen::MatrixXd>(theta.data(), 3, 2));
  };
  const Eigen::VectorXd theta = Eigen::Map<const Eigen::VectorXd>(fit->coefficients.data(), 6);
  for (int a = 0; a < 6; ++a) {
    // The score is zero at the maximum (central difference).
    Eigen::VectorXd up = theta, down = theta;
    up(a) += h;
    down(a) -= h;
    CHECK(std::abs(loglik(up) - loglik(down)) / (2 * h) < 1e-4);
    for (int b = 0; b < 6; ++b) {
      Eigen::VectorXd pp = theta, pm = theta, mp = theta, mm = theta;
      pp(a) += h, pp(b) += h, pm(a) += h, pm(b) -= h, mp(a) -= h, mp(b) += h, mm(a) -= h, mm(b) -= h;
      const double numeric = -(loglik(pp) - loglik(pm) - loglik(mp) + loglik(mm)) / (4 * h * h);
      CAPTURE(a);
      CAPTURE(b);
      CHECK(information(a, b) == doctest::Approx(numeric).epsilon(2e-3).scale(std::abs(information(a, a))));
    }
  }
}

TEST_CASE("rr regression: recovers known logistic coefficients (GRR, epsilon ln 5)") {
  const Eigen::MatrixXd beta = Coefficients({-1.0, 1.0, 0.5});
  for (int n : {300, 2000, 10000}) {
    CAPTURE(n);
    const auto data = SimulateRegression(n, beta, GrrChannel(2, std::log(5.0)), 0.4, 100 + n);
    auto fit = FitChannelLogit(data.randomised, nullptr);
    REQUIRE(fit);
    CheckRecovers(*fit, beta);
    CHECK(fit->iterations < 30);
  }
}

TEST_CASE("rr regression: a rare outcome (5%) at epsilon 2") {
  const Eigen::MatrixXd beta = Coefficients({-3.2, 0.8, 0.6});
  const auto data = SimulateRegression(10000, beta, GrrChannel(2, 2.0), 0.3, 7);
  auto fit = FitChannelLogit(data.randomised, nullptr);
  REQUIRE(fit);
  CheckRecovers(*fit, beta);
}

TEST_CASE("rr regression: multinomial with three categories (GRR k = 3, epsilon 2)") {
  const Eigen::MatrixXd beta = Coefficients({-0.5, 0.3, 0.8, 0.2, -0.4, 0.5}, 2);
  const auto data = SimulateRegression(5000, beta, GrrChannel(3, 2.0), 0.5, 9);
  auto fit = FitChannelLogit(data.randomised, nullptr);
  REQUIRE(fit);
  CheckRecovers(*fit, beta);
}

TEST_CASE("rr regression: without randomisation the fit is the ordinary logistic regression") {
  // The identity channel: the likelihood rows are the true categories, and
  // the score equation is the ordinary one, X'(y - pi) = 0.
  const Eigen::MatrixXd beta = Coefficients({-0.4, 0.7, -0.6});
  const auto data = SimulateRegression(2000, beta, GrrChannel(2, 2.0), 0.5, 3);
  auto fit = FitChannelLogit(data.exact, nullptr);
  REQUIRE(fit);
  REQUIRE(fit->converged);
  Eigen::VectorXd score = Eigen::VectorXd::Zero(3);
  for (int i = 0; i < 2000; ++i) {
    const Eigen::RowVectorXd x = data.exact.x.row(i);
    score += x.transpose() * (data.truth[i] - CategoryShares(x, fit->coefficients)(1));
  }
  CHECK(score.cwiseAbs().maxCoeff() < 1e-6);
  CheckRecovers(*fit, beta);
}

TEST_CASE("rr regression: a group with no 'yes' beyond the randomisation has no finite maximum") {
  // The group's reports show fewer "yes" (a fifth) than the randomisation
  // alone gives (q = 1/4): the likelihood grows as its share goes to 0, so its
  // coefficient runs to minus infinity. The fit says so and gives no covariance.
  Eigen::MatrixXd channel = GrrChannel(2, std::log(3.0));
  testing::SimulatedRegression data = SimulateRegression(600, Coefficients({0.0, 0.0, 0.0}), channel, 0.5, 4);
  int group_n = 0;
  for (int i = 0; i < 600; ++i) {
    if (data.randomised.x(i, 1) != 1.0) continue;
    const int report = group_n++ % 5 == 0 ? 1 : 0;
    data.randomised.likelihood.row(i) = channel.row(report);
  }
  auto fit = FitChannelLogit(data.randomised, nullptr);
  REQUIRE(fit);
  CHECK(fit->at_boundary);
  CHECK(fit->covariance.size() == 0);
}

TEST_CASE("rr regression: collinear covariates are an error; cancellation stops the fit") {
  auto data = SimulateRegression(200, Coefficients({0.0, 0.5, 0.5}), GrrChannel(2, 1.0), 0.5, 2);
  ChannelLogitProblem collinear = data.randomised;
  collinear.x.col(2) = 2.0 * collinear.x.col(1);
  auto fit = FitChannelLogit(collinear, nullptr);
  REQUIRE_FALSE(fit);
  CHECK(fit.error().find("collinear") != std::string::npos);
  auto cancelled = FitChannelLogit(data.randomised, [] { return true; });
  REQUIRE_FALSE(cancelled);
  CHECK(cancelled.error() == kEstimationCancelled);
  CHECK(cancelled.error_code() == ErrorCode::kCancelled);
}

}  // namespace
}  // namespace deniable
