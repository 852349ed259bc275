#include "core/numeric/levels/level_shares.h"

#include <cmath>

#include <Eigen/Dense>

namespace deniable {

Result<std::vector<LevelShare>> EstimateLevelShares(const LhpChannel& channel,
                                                    const std::vector<std::int64_t>& reported) {
  const int k = channel.levels();
  std::int64_t n = 0;
  for (std::int64_t count : reported) n += count;
  if (n == 0 || static_cast<int>(reported.size()) != k) return MakeError("no reports");
  Eigen::MatrixXd law(k, k);  // law(d, t) = P(reported d | true t)
  for (int d = 0; d < k; ++d) {
    for (int t = 0; t < k; ++t) law(d, t) = channel.LevelProbability(t, d);
  }
  Eigen::VectorXd observed(k);
  for (int d = 0; d < k; ++d) observed(d) = static_cast<double>(reported[d]) / static_cast<double>(n);
  const Eigen::PartialPivLU<Eigen::MatrixXd> lu(law);
  const Eigen::MatrixXd inverse = lu.inverse();
  if (!inverse.allFinite()) return MakeError("the level report's law cannot be inverted");
  const Eigen::VectorXd shares = inverse * observed;
  // Cov(observed) = (diag(q) - q q^T)/n for multinomial counts.
  const Eigen::MatrixXd observed_covariance =
      (Eigen::MatrixXd(observed.asDiagonal()) - observed * observed.transpose()) / static_cast<double>(n);
  const Eigen::MatrixXd covariance = inverse * observed_covariance * inverse.transpose();
  std::vector<LevelShare> result;
  for (int t = 0; t < k; ++t) result.push_back({shares(t), std::sqrt(std::max(0.0, covariance(t, t)))});
  return result;
}

}  // namespace deniable
