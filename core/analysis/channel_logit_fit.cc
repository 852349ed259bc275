#include "core/analysis/channel_logit_fit.h"

#include <algorithm>
#include <cmath>

#include "core/survey/question_kind.h"

namespace deniable {
namespace {

// Where the Newton decrement (the log-likelihood still to gain, to second
// order) counts as zero.
constexpr double kDecrementTolerance = 1e-10;
// Below the decrement floor that rounding in a sum of n terms allows, a
// failed line search is convergence, not a stall.
constexpr double kStallDecrement = 1e-6;
// A fitted share below this at some respondent: the likelihood still grows
// towards a share of 0 (or 1), so the maximum is not finite.
constexpr double kBoundaryShare = 1e-7;

// Per respondent: the shares pi, the posterior w of the true category given
// the response, and log sum_c L_c pi_c.
struct RowState {
  Eigen::MatrixXd shares;     // n x K
  Eigen::MatrixXd posterior;  // n x K
  double log_likelihood = 0;
};

Eigen::VectorXd SoftmaxWithReference(const Eigen::VectorXd& eta) {
  Eigen::VectorXd full(eta.size() + 1);
  full(0) = 0;
  full.tail(eta.size()) = eta;
  const double top = full.maxCoeff();
  Eigen::VectorXd e = (full.array() - top).exp();
  return e / e.sum();
}

RowState Evaluate(const ChannelLogitProblem& problem, const Eigen::MatrixXd& coefficients) {
  const Eigen::Index n = problem.x.rows();
  const Eigen::Index k = problem.likelihood.cols();
  RowState state{Eigen::MatrixXd(n, k), Eigen::MatrixXd(n, k), 0.0};
  const Eigen::MatrixXd eta = problem.x * coefficients;
  for (Eigen::Index i = 0; i < n; ++i) {
    const Eigen::VectorXd pi = SoftmaxWithReference(eta.row(i).transpose());
    const Eigen::VectorXd row = problem.likelihood.row(i).transpose();
    // Factor out the row's scale so that tiny likelihoods do not underflow.
    const double scale = row.maxCoeff();
    const Eigen::VectorXd joint = (row / scale).cwiseProduct(pi);
    const double total = joint.sum();
    state.shares.row(i) = pi.transpose();
    state.posterior.row(i) = (joint / total).transpose();
    state.log_likelihood += std::log(scale) + std::log(total);
  }
  return state;
}

// X' diag(h) X.
Eigen::MatrixXd WeightedGram(const Eigen::MatrixXd& x, const Eigen::VectorXd& h) {
  return x.transpose() * (x.array().colwise() * h.array()).matrix();
}

struct Derivatives {
  Eigen::VectorXd gradient;    // stacked by category: index d * p + j
  Eigen::MatrixXd observed;    // minus the observed Hessian
  Eigen::MatrixXd complete;    // the complete-data information
};

Derivatives Differentiate(const ChannelLogitProblem& problem, const RowState& state) {
  const Eigen::Index p = problem.x.cols();
  const Eigen::Index m = problem.likelihood.cols() - 1;
  Derivatives result{Eigen::VectorXd(p * m), Eigen::MatrixXd(p * m, p * m), Eigen::MatrixXd(p * m, p * m)};
  const Eigen::MatrixXd w = state.posterior.rightCols(m);
  const Eigen::MatrixXd pi = state.shares.rightCols(m);
  for (Eigen::Index d = 0; d < m; ++d) {
    result.gradient.segment(d * p, p) = problem.x.transpose() * (w.col(d) - pi.col(d));
    for (Eigen::Index e = 0; e < m; ++e) {
      const Eigen::VectorXd pipj = pi.col(d).cwiseProduct(pi.col(e));
      Eigen::VectorXd complete = -pipj;
      Eigen::VectorXd observed = w.col(d).cwiseProduct(w.col(e)) - pipj;
      if (d == e) {
        complete += pi.col(d);
        observed -= w.col(d) - pi.col(d);
      }
      result.complete.block(d * p, e * p, p, p) = WeightedGram(problem.x, complete);
      result.observed.block(d * p, e * p, p, p) = WeightedGram(problem.x, observed);
    }
  }
  return result;
}

Eigen::MatrixXd Unstack(const Eigen::VectorXd& stacked, Eigen::Index p, Eigen::Index m) {
  return Eigen::Map<const Eigen::MatrixXd>(stacked.data(), p, m);
}

// The ascent direction: Newton's where the observed information is positive
// definite, else the complete-data information's (EM with a Newton M step).
Eigen::VectorXd Direction(const Derivatives& derivatives) {
  Eigen::LLT<Eigen::MatrixXd> observed(derivatives.observed);
  if (observed.info() == Eigen::Success) return observed.solve(derivatives.gradient);
  return derivatives.complete.ldlt().solve(derivatives.gradient);
}

bool AtBoundary(const RowState& state) { return state.shares.minCoeff() < kBoundaryShare; }

}  // namespace

Eigen::VectorXd CategoryShares(const Eigen::RowVectorXd& x, const Eigen::MatrixXd& coefficients) {
  return SoftmaxWithReference((x * coefficients).transpose());
}

double ChannelLogitLogLikelihood(const ChannelLogitProblem& problem, const Eigen::MatrixXd& coefficients) {
  return Evaluate(problem, coefficients).log_likelihood;
}

Result<ChannelLogitFit> FitChannelLogit(const ChannelLogitProblem& problem, const std::function<bool()>& cancelled,
                                        int max_iterations) {
  const Eigen::Index p = problem.x.cols();
  const Eigen::Index m = problem.likelihood.cols() - 1;
  Eigen::ColPivHouseholderQR<Eigen::MatrixXd> qr(problem.x);
  if (qr.rank() < p) return MakeError("the covariates are collinear (a column of the design is a combination of others)");

  ChannelLogitFit fit;
  Eigen::VectorXd theta = Eigen::VectorXd::Zero(p * m);
  RowState state = Evaluate(problem, Unstack(theta, p, m));
  Derivatives derivatives = Differentiate(problem, state);
  for (; fit.iterations < max_iterations; ++fit.iterations) {
    if (cancelled && cancelled()) return MakeError(kEstimationCancelled);
    const Eigen::VectorXd direction = Direction(derivatives);
    const double decrement = derivatives.gradient.dot(direction);
    if (!std::isfinite(decrement)) break;
    if (decrement < kDecrementTolerance) {
      fit.converged = true;
      break;
    }
    // Backtracking (Armijo): halve the step until the log-likelihood rises enough.
    double step = 1.0;
    bool accepted = false;
    for (int halving = 0; halving < 40 && !accepted; ++halving, step /= 2) {
      const Eigen::VectorXd candidate = theta + step * direction;
      RowState next = Evaluate(problem, Unstack(candidate, p, m));
      if (std::isfinite(next.log_likelihood) &&
          next.log_likelihood >= state.log_likelihood + 1e-4 * step * decrement) {
        theta = candidate;
        state = std::move(next);
        accepted = true;
      }
    }
    if (!accepted) {
      fit.converged = decrement < kStallDecrement;
      break;
    }
    derivatives = Differentiate(problem, state);
  }
  fit.coefficients = Unstack(theta, p, m);
  fit.log_likelihood = state.log_likelihood;
  fit.at_boundary = AtBoundary(state);
  if (fit.converged && !fit.at_boundary) {
    Eigen::LLT<Eigen::MatrixXd> information(derivatives.observed);
    if (information.info() == Eigen::Success) {
      fit.covariance = information.solve(Eigen::MatrixXd::Identity(p * m, p * m));
    }
  }
  return fit;
}

}  // namespace deniable
