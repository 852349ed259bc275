#include "core/kinds/grid/grid_estimator.h"

#include <algorithm>
#include <cmath>

#include <Eigen/Dense>

#include "core/frequency/frequency_estimator.h"
#include "core/frequency/norm_sub.h"

namespace deniable {
namespace {

Eigen::MatrixXd ToMatrix(const ChannelMatrix& channel) {
  const auto levels = static_cast<Eigen::Index>(channel.size());
  const auto outputs = static_cast<Eigen::Index>(channel[0].size());
  Eigen::MatrixXd matrix(levels, outputs);
  for (Eigen::Index i = 0; i < levels; ++i) {
    for (Eigen::Index j = 0; j < outputs; ++j) matrix(i, j) = channel[static_cast<std::size_t>(i)][static_cast<std::size_t>(j)];
  }
  return matrix;
}

// The variance of s(report) when the answer is i.
double ConditionalVariance(const ChannelMatrix& channel, std::size_t i, const std::vector<double>& scores) {
  double mean = 0.0, square = 0.0;
  for (std::size_t j = 0; j < scores.size(); ++j) {
    mean += channel[i][j] * scores[j];
    square += channel[i][j] * scores[j] * scores[j];
  }
  return std::max(0.0, square - mean * mean);
}

// The variance of s(report) when reports are drawn with shares `lambda`.
double ReportVariance(const std::vector<double>& lambda, const std::vector<double>& scores) {
  double mean = 0.0, square = 0.0;
  for (std::size_t j = 0; j < scores.size(); ++j) {
    mean += lambda[j] * scores[j];
    square += lambda[j] * scores[j] * scores[j];
  }
  return std::max(0.0, square - mean * mean);
}

double Variance(const ChannelMatrix& channel, const std::vector<double>& lambda, const std::vector<double>& f,
                const std::vector<double>& scores, double n, IntervalTarget target) {
  if (target == IntervalTarget::kPopulation) return ReportVariance(lambda, scores) / n;
  double total = 0.0;
  for (std::size_t i = 0; i < f.size(); ++i) total += f[i] * ConditionalVariance(channel, i, scores);
  return total / n;
}

std::vector<double> Positions(std::size_t levels) {
  std::vector<double> positions;
  for (std::size_t i = 0; i < levels; ++i) positions.push_back(static_cast<double>(i + 1));
  return positions;
}

double Dot(const std::vector<double>& a, const std::vector<double>& b) {
  double total = 0.0;
  for (std::size_t i = 0; i < a.size(); ++i) total += a[i] * b[i];
  return total;
}

// The unbiased estimate with its interval, and the consistent one with the
// interval clipped to [low, high] and stretched to hold it.
LinearEstimate Estimate(double estimate, double variance, double consistent, double low, double high) {
  LinearEstimate result;
  result.estimate = estimate;
  result.std_error = std::sqrt(variance);
  result.ci_low = estimate - kZ95 * result.std_error;
  result.ci_high = estimate + kZ95 * result.std_error;
  result.consistent = consistent;
  result.consistent_ci_low = std::min(std::clamp(result.ci_low, low, high), consistent);
  result.consistent_ci_high = std::max(std::clamp(result.ci_high, low, high), consistent);
  return result;
}

}  // namespace

std::vector<double> UnbiasedScores(const ChannelMatrix& channel, const std::vector<double>& functional) {
  const Eigen::VectorXd a = Eigen::Map<const Eigen::VectorXd>(functional.data(), static_cast<Eigen::Index>(functional.size()));
  const Eigen::MatrixXd matrix = ToMatrix(channel);
  // Square (grr, ordinal): invertible. L x 2 (duchi): M s = a is consistent (E[report value | x] = x), so the
  // least-squares solution solves it exactly.
  const Eigen::VectorXd s = matrix.rows() == matrix.cols() ? Eigen::VectorXd(matrix.partialPivLu().solve(a))
                                                           : Eigen::VectorXd(matrix.colPivHouseholderQr().solve(a));
  return std::vector<double>(s.data(), s.data() + s.size());
}

RowEstimate EstimateRow(const ChannelMatrix& channel, const std::vector<std::int64_t>& counts, IntervalTarget target) {
  const std::size_t levels = channel.size();
  RowEstimate row;
  for (std::int64_t count : counts) row.n += count;
  const double n = static_cast<double>(row.n);
  std::vector<double> lambda;
  for (std::int64_t count : counts) lambda.push_back(row.n > 0 ? static_cast<double>(count) / n : NAN);

  const std::vector<double> positions = Positions(levels);
  const std::vector<double> mean_scores = UnbiasedScores(channel, positions);
  if (channel[0].size() != levels) {
    // No distribution from this channel (duchi): the mean alone. For these respondents its variance needs the
    // answers' spread, which the reports do not give; the population's variance bounds it from above (it adds
    // Var(position) / n), so both targets get that interval: conservative for the respondents.
    const double variance = ReportVariance(lambda, mean_scores) / n;
    const double mean = Dot(lambda, mean_scores);
    row.mean = Estimate(mean, variance, std::clamp(mean, 1.0, static_cast<double>(levels)), 1.0,
                        static_cast<double>(levels));
    return row;
  }
  const Eigen::MatrixXd inverse = ToMatrix(channel).inverse();
  std::vector<std::vector<double>> level_scores(levels);
  std::vector<double> frequencies;
  for (std::size_t k = 0; k < levels; ++k) {
    for (std::size_t j = 0; j < levels; ++j) {
      level_scores[k].push_back(inverse(static_cast<Eigen::Index>(j), static_cast<Eigen::Index>(k)));
    }
    frequencies.push_back(Dot(lambda, level_scores[k]));
  }
  const std::vector<double> consistent = row.n > 0 ? NormSub(frequencies, 1.0) : frequencies;
  // The report shares the consistent distribution implies: the empirical ones
  // whenever the unbiased estimate is a distribution, and never a share below
  // what the channel allows (as frequency_estimator.h plugs in f_hat clipped).
  std::vector<double> implied(levels, 0.0);
  for (std::size_t i = 0; i < levels; ++i) {
    for (std::size_t j = 0; j < levels; ++j) implied[j] += consistent[i] * channel[i][j];
  }
  for (std::size_t k = 0; k < levels; ++k) {
    const double variance = Variance(channel, implied, consistent, level_scores[k], n, target);
    row.levels.push_back(Estimate(frequencies[k], variance, consistent[k], 0.0, 1.0));
  }
  const double variance = Variance(channel, implied, consistent, mean_scores, n, target);
  row.mean = Estimate(Dot(lambda, mean_scores), variance, Dot(consistent, positions), 1.0,
                      static_cast<double>(levels));
  return row;
}

namespace {

// The variance of the estimate sum_j lambda_j s(j) (the scores s of one functional) when the answers' distribution
// is f: the reports' shares are then lambda = M^T f.
double FunctionalVariance(const ChannelMatrix& channel, const std::vector<double>& f, const std::vector<double>& scores,
                          double n, IntervalTarget target) {
  std::vector<double> lambda(channel[0].size(), 0.0);
  for (std::size_t i = 0; i < f.size(); ++i) {
    for (std::size_t j = 0; j < lambda.size(); ++j) lambda[j] += f[i] * channel[i][j];
  }
  return Variance(channel, lambda, f, scores, n, target);
}

}  // namespace

double MeanPositionVariance(const ChannelMatrix& channel, const std::vector<double>& f, double n,
                            IntervalTarget target) {
  return FunctionalVariance(channel, f, UnbiasedScores(channel, Positions(channel.size())), n, target);
}

double LevelShareVariance(const ChannelMatrix& channel, const std::vector<double>& f, int level, double n,
                          IntervalTarget target) {
  std::vector<double> indicator(channel.size(), 0.0);
  indicator[static_cast<std::size_t>(level)] = 1.0;
  return FunctionalVariance(channel, f, UnbiasedScores(channel, indicator), n, target);
}

}  // namespace deniable
