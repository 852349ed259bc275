// A randomised yes/no answer as a predictor of an open numeric outcome (rr's
// rrreg.predictor, with a linear outcome model): the latent true answer z,
//     P(z = 1 | x) = logistic(x'beta),
//     y | z, x ~ Normal(gamma_0 + gamma_z z + x'delta, sigma^2),
// seen through the randomised report's likelihood L(z) = P(report | z), so
// each respondent's likelihood is
//     sum_z L(z) P(z | x) phi((y - mean_z) / sigma) / sigma.
// Fitted by maximum likelihood: EM steps (the E step is the posterior w of
// z = 1 given the report AND y; the M step a weighted logistic fit for beta
// and weighted least squares for the outcome over both values of z) until
// the observed information is positive definite, then Newton steps on the
// observed likelihood (its gradient analytic by Fisher's identity, the
// Hessian by central differences of it), each with a line search. Standard
// errors from the observed information at the maximum; Wald intervals for the
// population's model.
#pragma once

#include <functional>

#include <Eigen/Dense>

#include "core/common/result.h"

namespace deniable {

struct PredictorProblem {
  Eigen::MatrixXd x;           // n x p covariates of both models, column 0 the intercept
  Eigen::VectorXd y;           // n open outcomes
  Eigen::MatrixXd likelihood;  // n x 2: P(report | z = 0), P(report | z = 1), up to a factor per row
};

struct PredictorFit {
  // Parameters stacked: beta (p), then gamma_0, gamma_z, delta (p - 1 for
  // the covariates after the intercept), then log sigma.
  Eigen::VectorXd parameters;
  Eigen::MatrixXd covariance;  // empty when the information is not invertible
  double log_likelihood = 0;
  bool converged = false;
  int iterations = 0;
};

// Index of gamma_z (the randomised answer's effect on y) among the parameters.
inline Eigen::Index PredictorEffectIndex(Eigen::Index p) { return p + 1; }

double PredictorLogLikelihood(const PredictorProblem& problem, const Eigen::VectorXd& parameters);

// Fails only when cancelled or when the covariates are collinear.
Result<PredictorFit> FitPredictor(const PredictorProblem& problem, const std::function<bool()>& cancelled,
                                  int max_iterations = 500);

}  // namespace deniable
