// Simulated randomised-response regression data for the tests and
// bench/rr_regression_bench.cc (header-only so the bench can include it):
// covariates (an intercept, a two-level group, a standard normal), true
// categories drawn from the multinomial logit with known coefficients, and
// each respondent's report drawn through a channel matrix
// M(r, c) = P(report r | true category c).
#pragma once

#include <cmath>
#include <cstdint>
#include <vector>

#include <Eigen/Dense>

#include "core/analysis/channel_logit_fit.h"
#include "core/common/random_source.h"
#include "core/common/seeded_random.h"

namespace deniable::testing {

// GRR on k categories at epsilon: P(report c | c) = e^eps / (e^eps + k - 1).
inline Eigen::MatrixXd GrrChannel(int k, double epsilon) {
  const double e = std::exp(epsilon);
  const double keep = e / (e + k - 1), other = 1.0 / (e + k - 1);
  Eigen::MatrixXd m = Eigen::MatrixXd::Constant(k, k, other);
  m.diagonal().setConstant(keep);
  return m;
}

inline double StandardNormal(RandomSource& random) {
  // Box-Muller; 1 - U keeps the logarithm finite.
  const double u = 1.0 - UniformUnit(random), v = UniformUnit(random);
  return std::sqrt(-2.0 * std::log(u)) * std::cos(2.0 * M_PI * v);
}

inline int DrawCategory(const Eigen::VectorXd& probabilities, RandomSource& random) {
  double u = UniformUnit(random);
  for (int c = 0; c + 1 < probabilities.size(); ++c) {
    if (u < probabilities(c)) return c;
    u -= probabilities(c);
  }
  return static_cast<int>(probabilities.size()) - 1;
}

struct SimulatedRegression {
  ChannelLogitProblem randomised;  // likelihood rows: the reports through the channel
  ChannelLogitProblem exact;       // likelihood rows: the true categories (a non-private fit)
  std::vector<int> truth, reports;
};

// Covariates: intercept, group (1 with probability group_share), a standard
// normal; `coefficients` is 3 x (K-1).
inline SimulatedRegression SimulateRegression(int n, const Eigen::MatrixXd& coefficients,
                                              const Eigen::MatrixXd& channel, double group_share,
                                              std::uint64_t seed) {
  SeededRandom random(seed);
  const int k = static_cast<int>(channel.rows());
  SimulatedRegression data;
  data.randomised.x.resize(n, 3);
  data.randomised.likelihood.resize(n, k);
  data.exact.likelihood = Eigen::MatrixXd::Zero(n, k);
  for (int i = 0; i < n; ++i) {
    Eigen::RowVectorXd x(3);
    x << 1.0, Bernoulli(random, group_share) ? 1.0 : 0.0, StandardNormal(random);
    data.randomised.x.row(i) = x;
    const int truth = DrawCategory(CategoryShares(x, coefficients), random);
    const int report = DrawCategory(channel.col(truth), random);
    data.randomised.likelihood.row(i) = channel.row(report);
    data.exact.likelihood(i, truth) = 1.0;
    data.truth.push_back(truth);
    data.reports.push_back(report);
  }
  data.exact.x = data.randomised.x;
  return data;
}

}  // namespace deniable::testing
