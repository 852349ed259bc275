// Maximum likelihood for a logistic (multinomial) regression whose outcome is
// seen only through a known channel (Blair, Imai & Zhou 2015, rr's rrreg):
//     P(response_i | x_i) = sum_c L_ic * pi_c(x_i; B),
// L_ic = P(response_i | true category c) (the question's CategoryChannel),
// pi(x; B) = softmax(0, x'B_1, ..., x'B_{K-1}): category 0 is the reference.
// K = 2 is the logistic regression of rrreg (for the forced-response design
// L_i1 = p + p1 for a "yes", p0 for a "no"; L_i0 = p1 and p + p0).
//
// Fitted by Newton's method on the observed log-likelihood, whose gradient
// and Hessian per respondent in eta = (x'B_c)_c are (w the posterior of the
// true category given the response, the E step of rrreg's EM)
//     g = w - pi,   H = diag(w - pi) - w w' + pi pi'.
// Far from the maximum the observed Hessian of a mixture may not be negative
// definite; the step then uses the complete-data information
// diag(pi) - pi pi' (an EM step with a Newton M step: an ascent direction).
// A backtracking line search keeps every step ascending. Newton's step, the
// line search and the stopping rule (the Newton decrement) are unchanged by a
// linear change of covariates, so no rescaling is needed. Cost per iteration:
// O(n p^2 (K-1)^2); a few tens of iterations where EM would take thousands
// when the channel is noisy (EM's rate is the fraction of missing information).
//
// Standard errors are the observed information's inverse at the maximum; the
// Wald intervals they give are for the population's model (each respondent a
// draw from it). No finite maximum exists when a covariate profile's fitted
// share goes to 0 or 1 (a group whose reports show fewer "yes" than the
// randomisation alone gives, the randomised analogue of separation): that is
// detected and stated, and no covariance is returned then.
#pragma once

#include <functional>
#include <string>

#include <Eigen/Dense>

#include "core/common/result.h"

namespace deniable {

struct ChannelLogitProblem {
  Eigen::MatrixXd x;           // n x p design, one row per respondent
  Eigen::MatrixXd likelihood;  // n x K, each row up to a positive factor of its own
};

struct ChannelLogitFit {
  Eigen::MatrixXd coefficients;  // p x (K-1): column d for category d + 1 against category 0
  // Covariance of the coefficients stacked column by column (index d * p + j);
  // empty when the observed information is not invertible or no finite
  // maximum exists.
  Eigen::MatrixXd covariance;
  double log_likelihood = 0;  // with the likelihood rows as given
  bool converged = false;
  bool at_boundary = false;  // a fitted share at 0 or 1: no finite maximum
  int iterations = 0;
};

// The observed log-likelihood sum_i log sum_c L_ic pi_ic(B).
double ChannelLogitLogLikelihood(const ChannelLogitProblem& problem, const Eigen::MatrixXd& coefficients);

// Category probabilities softmax(0, x'B) for one row of covariates.
Eigen::VectorXd CategoryShares(const Eigen::RowVectorXd& x, const Eigen::MatrixXd& coefficients);

// Fails only when cancelled (kEstimationCancelled) or when the design's columns
// are collinear (the message says so); non-convergence is in the fit.
Result<ChannelLogitFit> FitChannelLogit(const ChannelLogitProblem& problem, const std::function<bool()>& cancelled,
                                        int max_iterations = 200);

}  // namespace deniable
