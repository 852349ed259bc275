#include "core/analysis/rr_predictor_fit.h"

#include <algorithm>
#include <cmath>

#include "core/survey/question_kind.h"

namespace deniable {
namespace {

constexpr double kPredictorDecrementTolerance = 1e-9;
constexpr double kPredictorStallDecrement = 1e-6;
constexpr double kHalfLogTwoPi = 0.91893853320467274178;

// log(1 + e^t) without overflow.
double Softplus(double t) { return t > 0 ? t + std::log1p(std::exp(-t)) : std::log1p(std::exp(t)); }

struct Layout {
  Eigen::Index p;
  Eigen::Index gamma() const { return p; }          // gamma_0, gamma_z, delta: p + 1 entries
  Eigen::Index log_sigma() const { return 2 * p + 1; }
  Eigen::Index size() const { return 2 * p + 2; }
};

// Per respondent: P(z = 1 | x), the residuals of y for z = 0 and 1, the
// posterior w of z = 1 given the report and y; and the log-likelihood.
struct State {
  Eigen::VectorXd pi, r0, r1, w;
  double log_likelihood = 0;
};

State EvaluatePredictor(const PredictorProblem& problem, const Eigen::VectorXd& theta) {
  const Layout layout{problem.x.cols()};
  const Eigen::Index n = problem.x.rows(), p = layout.p;
  const Eigen::VectorXd eta = problem.x * theta.head(p);
  const double gamma0 = theta(layout.gamma()), gamma_z = theta(layout.gamma() + 1);
  const double log_sigma = theta(layout.log_sigma()), sigma = std::exp(log_sigma);
  State state{Eigen::VectorXd(n), Eigen::VectorXd(n), Eigen::VectorXd(n), Eigen::VectorXd(n), 0.0};
  const Eigen::VectorXd shift = problem.x.rightCols(p - 1) * theta.segment(layout.gamma() + 2, p - 1);
  for (Eigen::Index i = 0; i < n; ++i) {
    state.pi(i) = 1.0 / (1.0 + std::exp(-eta(i)));
    state.r0(i) = problem.y(i) - gamma0 - shift(i);
    state.r1(i) = state.r0(i) - gamma_z;
    const double scale = problem.likelihood.row(i).maxCoeff();
    // log of each z's term: L(z) P(z | x) phi(r_z / sigma) / sigma.
    const double a0 = std::log(problem.likelihood(i, 0) / scale) - Softplus(eta(i)) -
                      0.5 * state.r0(i) * state.r0(i) / (sigma * sigma);
    const double a1 = std::log(problem.likelihood(i, 1) / scale) - Softplus(-eta(i)) -
                      0.5 * state.r1(i) * state.r1(i) / (sigma * sigma);
    const double top = std::max(a0, a1);
    const double total = top + std::log(std::exp(a0 - top) + std::exp(a1 - top));
    state.w(i) = std::exp(a1 - total);
    state.log_likelihood += std::log(scale) + total - log_sigma - kHalfLogTwoPi;
  }
  return state;
}

// The outcome design for z: (1, z, x without its intercept).
Eigen::VectorXd OutcomeRow(const PredictorProblem& problem, Eigen::Index i, double z) {
  const Eigen::Index p = problem.x.cols();
  Eigen::VectorXd row(p + 1);
  row(0) = 1.0;
  row(1) = z;
  row.tail(p - 1) = problem.x.row(i).tail(p - 1).transpose();
  return row;
}

// The observed log-likelihood's gradient: the complete data's, averaged over
// z's posterior (Fisher's identity).
Eigen::VectorXd Gradient(const PredictorProblem& problem, const Eigen::VectorXd& theta, const State& state) {
  const Layout layout{problem.x.cols()};
  const double variance = std::exp(2 * theta(layout.log_sigma()));
  Eigen::VectorXd g = Eigen::VectorXd::Zero(layout.size());
  g.head(layout.p) = problem.x.transpose() * (state.w - state.pi);
  double spread = 0;
  for (Eigen::Index i = 0; i < problem.x.rows(); ++i) {
    const double w = state.w(i);
    g.segment(layout.gamma(), layout.p + 1) +=
        (w * state.r1(i) * OutcomeRow(problem, i, 1) + (1 - w) * state.r0(i) * OutcomeRow(problem, i, 0)) / variance;
    spread += w * state.r1(i) * state.r1(i) + (1 - w) * state.r0(i) * state.r0(i);
  }
  g(layout.log_sigma()) = spread / variance - static_cast<double>(problem.x.rows());
  return g;
}

Eigen::VectorXd GradientAt(const PredictorProblem& problem, const Eigen::VectorXd& theta) {
  return Gradient(problem, theta, EvaluatePredictor(problem, theta));
}

// Minus the Hessian, by central differences of the analytic gradient.
Eigen::MatrixXd Information(const PredictorProblem& problem, const Eigen::VectorXd& theta) {
  const Eigen::Index size = theta.size();
  Eigen::MatrixXd information(size, size);
  for (Eigen::Index j = 0; j < size; ++j) {
    const double h = 1e-5 * std::max(1.0, std::abs(theta(j)));
    Eigen::VectorXd up = theta, down = theta;
    up(j) += h;
    down(j) -= h;
    information.col(j) = -(GradientAt(problem, up) - GradientAt(problem, down)) / (2 * h);
  }
  return (information + information.transpose()) / 2;
}

// The M step given the posterior w: one Newton step of the weighted logistic
// fit for beta (a generalised EM step: it raises the expected log-likelihood),
// weighted least squares over both values of z for the outcome, and sigma.
Eigen::VectorXd MStep(const PredictorProblem& problem, const Eigen::VectorXd& theta, const State& state) {
  const Layout layout{problem.x.cols()};
  const Eigen::Index p = layout.p;
  Eigen::VectorXd next = theta;
  const Eigen::VectorXd curvature = state.pi.cwiseProduct(Eigen::VectorXd::Ones(state.pi.size()) - state.pi);
  const Eigen::MatrixXd fisher = problem.x.transpose() * (problem.x.array().colwise() * curvature.array()).matrix();
  next.head(p) += fisher.ldlt().solve(problem.x.transpose() * (state.w - state.pi));
  Eigen::MatrixXd normal = Eigen::MatrixXd::Zero(p + 1, p + 1);
  Eigen::VectorXd right = Eigen::VectorXd::Zero(p + 1);
  for (Eigen::Index i = 0; i < problem.x.rows(); ++i) {
    const Eigen::VectorXd z1 = OutcomeRow(problem, i, 1), z0 = OutcomeRow(problem, i, 0);
    normal += state.w(i) * z1 * z1.transpose() + (1 - state.w(i)) * z0 * z0.transpose();
    right += problem.y(i) * (state.w(i) * z1 + (1 - state.w(i)) * z0);
  }
  const Eigen::VectorXd gamma = normal.ldlt().solve(right);
  next.segment(layout.gamma(), p + 1) = gamma;
  double spread = 0;
  for (Eigen::Index i = 0; i < problem.x.rows(); ++i) {
    const double r1 = problem.y(i) - OutcomeRow(problem, i, 1).dot(gamma);
    const double r0 = problem.y(i) - OutcomeRow(problem, i, 0).dot(gamma);
    spread += state.w(i) * r1 * r1 + (1 - state.w(i)) * r0 * r0;
  }
  next(layout.log_sigma()) = 0.5 * std::log(std::max(spread / static_cast<double>(problem.x.rows()), 1e-300));
  return next;
}

// The start: the posterior of z from the report alone (P(z = 1) = 1/2), then an M step.
Eigen::VectorXd Start(const PredictorProblem& problem) {
  const Layout layout{problem.x.cols()};
  Eigen::VectorXd theta = Eigen::VectorXd::Zero(layout.size());
  State state;
  state.pi = Eigen::VectorXd::Constant(problem.x.rows(), 0.5);
  state.w = problem.likelihood.col(1).cwiseQuotient(problem.likelihood.rowwise().sum());
  return MStep(problem, theta, state);
}

}  // namespace

double PredictorLogLikelihood(const PredictorProblem& problem, const Eigen::VectorXd& parameters) {
  return EvaluatePredictor(problem, parameters).log_likelihood;
}

Result<PredictorFit> FitPredictor(const PredictorProblem& problem, const std::function<bool()>& cancelled,
                                  int max_iterations) {
  Eigen::ColPivHouseholderQR<Eigen::MatrixXd> qr(problem.x);
  if (qr.rank() < problem.x.cols()) return MakeError("the covariates are collinear (a column of the design is a combination of others)");
  PredictorFit fit;
  Eigen::VectorXd theta = Start(problem);
  State state = EvaluatePredictor(problem, theta);
  Eigen::MatrixXd information;
  for (; fit.iterations < max_iterations; ++fit.iterations) {
    if (cancelled && cancelled()) return MakeError(kEstimationCancelled, ErrorCode::kCancelled);
    const Eigen::VectorXd gradient = Gradient(problem, theta, state);
    information = Information(problem, theta);
    Eigen::LLT<Eigen::MatrixXd> llt(information);
    bool stepped = false;
    if (llt.info() == Eigen::Success) {
      const Eigen::VectorXd direction = llt.solve(gradient);
      const double decrement = gradient.dot(direction);
      if (decrement < kPredictorDecrementTolerance) {
        fit.converged = true;
        break;
      }
      for (double step = 1.0; step > 1e-6 && !stepped; step /= 2) {
        const Eigen::VectorXd candidate = theta + step * direction;
        State next = EvaluatePredictor(problem, candidate);
        if (std::isfinite(next.log_likelihood) &&
            next.log_likelihood >= state.log_likelihood + 1e-4 * step * decrement) {
          theta = candidate;
          state = std::move(next);
          stepped = true;
        }
      }
    }
    if (!stepped && llt.info() == Eigen::Success && gradient.dot(llt.solve(gradient)) < kPredictorStallDecrement) {
      // What is left to gain is below the rounding of a sum over n respondents.
      fit.converged = true;
      break;
    }
    if (!stepped) {  // EM: never lowers the likelihood.
      theta = MStep(problem, theta, state);
      state = EvaluatePredictor(problem, theta);
    }
  }
  fit.parameters = theta;
  fit.log_likelihood = state.log_likelihood;
  if (fit.converged) {
    Eigen::LLT<Eigen::MatrixXd> llt(information);
    if (llt.info() == Eigen::Success) {
      fit.covariance = llt.solve(Eigen::MatrixXd::Identity(theta.size(), theta.size()));
    }
  }
  return fit;
}

}  // namespace deniable
