#include "core/distribution/linear_moments.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include <Eigen/Dense>

namespace deniable {
namespace {

constexpr double kFrequencyFloor = 1e-9;
constexpr double kZ = 1.959963984540054;

struct Solved {
  Eigen::VectorXd w;
  double value = 0, bias_bound = 0, value_variance = 0, half_width = 0;
};

struct System {
  Eigen::MatrixXd t;              // outputs x m
  Eigen::VectorXd inverse_q;      // 1 / q_j
  Eigen::MatrixXd a;              // T^T Q^-1 T
  Eigen::VectorXd eigenvalues;    // of A (symmetric, positive semi-definite)
  Eigen::MatrixXd eigenvectors;
  Eigen::VectorXd frequency;      // c_j / N
};

// For one alpha: the weights, the estimate, its bias bound and the variance
// of one value's weight. (A + alpha I)^-1 g through A's eigendecomposition,
// computed once for every alpha.
Solved SolveFor(const System& system, const Eigen::VectorXd& projected_g, double alpha, double reports) {
  Solved s;
  const Eigen::VectorXd z =
      system.eigenvectors * (projected_g.array() / (system.eigenvalues.array() + alpha)).matrix();
  s.w = system.inverse_q.cwiseProduct(system.t * z);
  s.value = s.w.dot(system.frequency);
  s.bias_bound = alpha * z.cwiseAbs().maxCoeff();  // T^T w - g = A z - g = -alpha z
  s.value_variance = std::max(0.0, system.frequency.dot(s.w.cwiseProduct(s.w)) - s.value * s.value);
  s.half_width = s.bias_bound + kZ * std::sqrt(s.value_variance / reports);
  return s;
}

Solved ShortestInterval(const System& system, const Eigen::VectorXd& g, double reports) {
  Solved best;
  best.half_width = std::numeric_limits<double>::infinity();
  const Eigen::VectorXd projected_g = system.eigenvectors.transpose() * g;
  const double scale = system.eigenvalues.maxCoeff();
  for (int step = -24; step <= 2; ++step) {
    const Solved s = SolveFor(system, projected_g, scale * std::pow(10.0, 0.5 * step), reports);
    if (std::isfinite(s.half_width) && s.half_width < best.half_width) best = s;
  }
  return best;
}

}  // namespace

Result<LinearMoments> EstimateLinearMoments(const TransitionMatrix& transition, const std::vector<double>& counts,
                                            std::int64_t reports) {
  const int m = transition.input_cells(), outputs = transition.output_cells();
  if (static_cast<int>(counts.size()) != outputs) return MakeError("linear moments: one count per output cell");
  if (reports < 2) return MakeError("linear moments need at least 2 reports");
  const double total = std::accumulate(counts.begin(), counts.end(), 0.0);
  if (!(total > 0.0)) return MakeError("linear moments need at least one reported value");
  // Q: the output frequencies if the answers were uniform, fixed before the
  // data are seen, so the weights do not depend on the counts they weigh
  // (weights from the observed frequencies make the estimate
  // sum_i z_i whatever the counts: biased).
  System system;
  system.t.resize(outputs, m);
  for (int i = 0; i < m; ++i) system.t.col(i) = Eigen::Map<const Eigen::VectorXd>(transition.column(i), outputs);
  const Eigen::VectorXd uniform_output = system.t.rowwise().sum() / static_cast<double>(m);
  system.inverse_q = uniform_output.cwiseMax(kFrequencyFloor).cwiseInverse();
  system.a = system.t.transpose() * system.inverse_q.asDiagonal() * system.t;
  system.frequency = Eigen::Map<const Eigen::VectorXd>(counts.data(), outputs) / total;
  const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eigen(system.a);
  if (eigen.info() != Eigen::Success) return MakeError("linear moments: the eigendecomposition failed");
  system.eigenvalues = eigen.eigenvalues().cwiseMax(0.0);
  system.eigenvectors = eigen.eigenvectors();
  const double n = static_cast<double>(reports);
  std::vector<Solved> solved;
  for (int k = 1; k <= kLinearMomentOrders; ++k) {
    Eigen::VectorXd g(m);  // u^k averaged over each cell
    for (int i = 0; i < m; ++i) {
      const double low = static_cast<double>(i) / m, high = static_cast<double>(i + 1) / m;
      g(i) = (std::pow(high, k + 1) - std::pow(low, k + 1)) / ((k + 1) * (high - low));
    }
    solved.push_back(ShortestInterval(system, g, n));
  }
  LinearMoments moments;
  moments.covariance.assign(solved.size(), std::vector<double>(solved.size(), 0.0));
  for (std::size_t a = 0; a < solved.size(); ++a) {
    moments.raw.push_back({solved[a].value, solved[a].bias_bound, std::sqrt(solved[a].value_variance / n)});
    for (std::size_t b = 0; b < solved.size(); ++b) {
      moments.covariance[a][b] =
          (system.frequency.dot(solved[a].w.cwiseProduct(solved[b].w)) - solved[a].value * solved[b].value) / n;
    }
  }
  return moments;
}

}  // namespace deniable
