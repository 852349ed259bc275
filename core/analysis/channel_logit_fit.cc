#include "core/analysis/channel_logit_fit.h"

#include <algorithm>
#include <cmath>

#include "core/survey/question_kind.h"

namespace deniable {
namespace {

// Where the Newton decrement (the log-likelihood still to gain, to second
// order) counts as zero.
constexpr double kLogitDecrementTolerance = 1e-10;
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

RowState EvaluateLogit(const ChannelLogitProblem& problem, const Eigen::MatrixXd& coefficients) {
  const Eigen::Index n = problem.x.rows();
  const Eigen::Index k = problem.likelihood.cols();
  RowState state{Eigen::MatrixXd(n, k), Eigen::MatrixXd(n, k), 0.0};
  // Softmax with the reference's eta = 0, less each row's largest eta (no overflow).
  Eigen::MatrixXd eta(n, k);
  eta.col(0).setZero();
  eta.rightCols(k - 1) = problem.x * coefficients;
  const Eigen::VectorXd top = eta.rowwise().maxCoeff();
  const Eigen::ArrayXXd e = (eta.colwise() - top).array().exp();
  state.shares = e.colwise() / e.rowwise().sum();
  // Factor out each likelihood row's scale so that tiny likelihoods do not underflow.
  const Eigen::ArrayXd scale = problem.likelihood.rowwise().maxCoeff().array();
  const Eigen::ArrayXXd joint = (problem.likelihood.array().colwise() / scale) * state.shares.array();
  const Eigen::ArrayXd total = joint.rowwise().sum();
  state.posterior = joint.colwise() / total;
  state.log_likelihood = scale.log().sum() + total.log().sum();
  return state;
}

struct Derivatives {
  Eigen::VectorXd gradient;    // stacked by category: index d * p + j
  Eigen::MatrixXd observed;    // minus the observed Hessian
  Eigen::MatrixXd complete;    // the complete-data information
};

// One pass over the respondents, adding x x' times each one's m x m blocks
// (no n-sized temporaries: at n = 10^5 those cost more than the arithmetic).
Derivatives Differentiate(const ChannelLogitProblem& problem, const RowState& state) {
  const Eigen::Index p = problem.x.cols();
  const Eigen::Index m = problem.likelihood.cols() - 1;
  Derivatives result{Eigen::VectorXd::Zero(p * m), Eigen::MatrixXd::Zero(p * m, p * m),
                     Eigen::MatrixXd::Zero(p * m, p * m)};
  Eigen::VectorXd x(p);
  Eigen::MatrixXd outer(p, p);
  for (Eigen::Index i = 0; i < problem.x.rows(); ++i) {
    x = problem.x.row(i).transpose();
    outer.noalias() = x * x.transpose();
    for (Eigen::Index d = 0; d < m; ++d) {
      const double w_d = state.posterior(i, d + 1), pi_d = state.shares(i, d + 1);
      result.gradient.segment(d * p, p) += (w_d - pi_d) * x;
      for (Eigen::Index e = 0; e < m; ++e) {
        const double w_e = state.posterior(i, e + 1), pi_e = state.shares(i, e + 1);
        // Minus H: pi pi' - diag(pi) for the complete data; for the observed
        // data the posterior's spread is subtracted (missing information).
        double complete = -pi_d * pi_e, observed = w_d * w_e - pi_d * pi_e;
        if (d == e) complete += pi_d, observed -= w_d - pi_d;
        result.complete.block(d * p, e * p, p, p) += complete * outer;
        result.observed.block(d * p, e * p, p, p) += observed * outer;
      }
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
  Eigen::VectorXd eta(coefficients.cols() + 1);
  eta(0) = 0;
  eta.tail(coefficients.cols()) = (x * coefficients).transpose();
  const Eigen::VectorXd e = (eta.array() - eta.maxCoeff()).exp();
  return e / e.sum();
}

double ChannelLogitLogLikelihood(const ChannelLogitProblem& problem, const Eigen::MatrixXd& coefficients) {
  return EvaluateLogit(problem, coefficients).log_likelihood;
}

Result<ChannelLogitFit> FitChannelLogit(const ChannelLogitProblem& problem, const std::function<bool()>& cancelled,
                                        int max_iterations) {
  const Eigen::Index p = problem.x.cols();
  const Eigen::Index m = problem.likelihood.cols() - 1;
  Eigen::ColPivHouseholderQR<Eigen::MatrixXd> qr(problem.x);
  if (qr.rank() < p) return MakeError("the covariates are collinear (a column of the design is a combination of others)");

  ChannelLogitFit fit;
  Eigen::VectorXd theta = Eigen::VectorXd::Zero(p * m);
  RowState state = EvaluateLogit(problem, Unstack(theta, p, m));
  Derivatives derivatives = Differentiate(problem, state);
  for (; fit.iterations < max_iterations; ++fit.iterations) {
    if (cancelled && cancelled()) return MakeError(kEstimationCancelled, ErrorCode::kCancelled);
    const Eigen::VectorXd direction = Direction(derivatives);
    const double decrement = derivatives.gradient.dot(direction);
    if (!std::isfinite(decrement)) break;
    if (decrement < kLogitDecrementTolerance) {
      fit.converged = true;
      break;
    }
    // Backtracking (Armijo): halve the step until the log-likelihood rises enough.
    double step = 1.0;
    bool accepted = false;
    for (int halving = 0; halving < 40 && !accepted; ++halving, step /= 2) {
      const Eigen::VectorXd candidate = theta + step * direction;
      RowState next = EvaluateLogit(problem, Unstack(candidate, p, m));
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
