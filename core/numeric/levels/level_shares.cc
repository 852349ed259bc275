#include "core/numeric/levels/level_shares.h"

#include <cmath>

#include <Eigen/Dense>

namespace deniable {
namespace {

// Cov(observed shares) given the respondents' true level shares (level_shares.h).
Eigen::MatrixXd RespondentsCovariance(const Eigen::MatrixXd& law, const Eigen::VectorXd& shares, double n) {
  Eigen::VectorXd pi = shares.cwiseMax(0.0).cwiseMin(1.0);
  if (pi.sum() > 0.0) pi /= pi.sum();
  Eigen::MatrixXd covariance = Eigen::MatrixXd::Zero(law.rows(), law.rows());
  for (Eigen::Index t = 0; t < law.cols(); ++t) {
    const Eigen::VectorXd column = law.col(t);
    covariance += pi(t) * (Eigen::MatrixXd(column.asDiagonal()) - column * column.transpose());
  }
  return covariance / n;
}

}  // namespace

Result<std::vector<LevelShare>> EstimateLevelShares(const LhpChannel& channel,
                                                    const std::vector<std::int64_t>& reported, IntervalTarget target) {
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
  // Cov(observed) = (diag(q) - q q^T)/n for multinomial counts (the population).
  const Eigen::MatrixXd observed_covariance =
      target == IntervalTarget::kPopulation
          ? Eigen::MatrixXd((Eigen::MatrixXd(observed.asDiagonal()) - observed * observed.transpose()) /
                            static_cast<double>(n))
          : RespondentsCovariance(law, shares, static_cast<double>(n));
  const Eigen::MatrixXd covariance = inverse * observed_covariance * inverse.transpose();
  std::vector<LevelShare> result;
  for (int t = 0; t < k; ++t) result.push_back({shares(t), std::sqrt(std::max(0.0, covariance(t, t)))});
  return result;
}

}  // namespace deniable
