#include "core/central/ahp_release.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "core/central/discrete_laplace.h"
#include "core/common/validation.h"

namespace deniable {
namespace {

// Prefix sums of the values and of their squares (index i: the first i values).
struct SquareSums {
  std::vector<double> sum, squares;
  double Mean(std::size_t l, std::size_t r) const { return (sum[r + 1] - sum[l]) / static_cast<double>(r - l + 1); }
  // Sum of squared deviations from the mean over [l, r].
  double Sse(std::size_t l, std::size_t r) const {
    const double m = static_cast<double>(r - l + 1);
    const double mean = Mean(l, r);
    return std::max(0.0, squares[r + 1] - squares[l] - m * mean * mean);
  }
};

// The error of cluster [l, r]: its squared deviations plus the noise term t/m.
double ClusterError(const SquareSums& sums, std::size_t l, std::size_t r, double t) {
  return sums.Sse(l, r) + t / static_cast<double>(r - l + 1);
}

// err*(x_j): the least (x_j - mean(x_j..x_l))^2 + t/(l - j + 1)^2 over l >= j,
// scanning l upwards and stopping once the growth of the first term reaches
// the last second term's excess over its floor t/(remaining + 1)^2.
double BestOwnError(const std::vector<double>& sorted, const SquareSums& sums, std::size_t j, double t) {
  const std::size_t n = sorted.size();
  const double remaining = static_cast<double>(n - j);
  const double floor = t / ((remaining + 1.0) * (remaining + 1.0));
  double last_deviation = 0.0;  // l = j: the mean is x_j itself
  double last_noise = t;
  double best = last_deviation + last_noise;
  for (std::size_t l = j + 1; l < n; ++l) {
    const double length = static_cast<double>(l - j + 1);
    const double deviation = std::pow(sorted[j] - sums.Mean(j, l), 2);
    const double noise = t / (length * length);
    if (deviation - last_deviation >= last_noise - floor) break;
    best = std::min(best, deviation + noise);
    last_deviation = deviation;
    last_noise = noise;
  }
  return best;
}

}  // namespace

std::vector<std::size_t> AhpClusterEnds(const std::vector<double>& sorted, double t) {
  std::vector<std::size_t> ends;
  const std::size_t n = sorted.size();
  if (n == 0) return ends;
  SquareSums sums{std::vector<double>(n + 1, 0.0), std::vector<double>(n + 1, 0.0)};
  for (std::size_t i = 0; i < n; ++i) {
    sums.sum[i + 1] = sums.sum[i] + sorted[i];
    sums.squares[i + 1] = sums.squares[i] + sorted[i] * sorted[i];
  }
  std::size_t start = 0;
  double current = ClusterError(sums, 0, 0, t);
  for (std::size_t j = 1; j < n; ++j) {
    const double joined = ClusterError(sums, start, j, t);
    if (joined >= current + BestOwnError(sorted, sums, j, t)) {
      ends.push_back(j - 1);
      start = j;
      current = ClusterError(sums, j, j, t);
    } else {
      current = joined;
    }
  }
  ends.push_back(n - 1);
  return ends;
}

Result<HistogramRelease> ReleaseAhp(const std::vector<std::int64_t>& counts, const AhpParameters& parameters,
                                    RandomSource& random) {
  if (counts.empty()) return MakeError("the histogram has no bins");
  DENIABLE_TRY(ValidateEpsilon(parameters.epsilon));
  if (!(parameters.ratio > 0.0 && parameters.ratio < 1.0)) return MakeError("ratio must be in (0, 1)");
  if (!(parameters.eta >= 0.0)) return MakeError("eta must be at least 0");
  const double epsilon1 = parameters.ratio * parameters.epsilon;
  const double epsilon2 = parameters.epsilon - epsilon1;
  DENIABLE_ASSIGN_OR_RETURN(auto first, DiscreteLaplace::Create(epsilon1, parameters.sensitivity));
  DENIABLE_ASSIGN_OR_RETURN(auto second, DiscreteLaplace::Create(epsilon2, parameters.sensitivity));
  HistogramRelease release;
  const double cutoff = parameters.eta * std::log(static_cast<double>(counts.size())) / epsilon1 *
                        static_cast<double>(parameters.sensitivity);
  std::vector<double> noisy;
  for (std::int64_t count : counts) {
    release.first_phase.push_back(count + first.Draw(random));
    noisy.push_back(release.first_phase.back() <= cutoff ? 0.0 : static_cast<double>(release.first_phase.back()));
  }
  std::vector<std::size_t> order(counts.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return noisy[a] < noisy[b]; });
  std::vector<double> sorted;
  for (std::size_t bin : order) sorted.push_back(noisy[bin]);
  const double sensitivity = static_cast<double>(parameters.sensitivity);
  std::size_t start = 0;
  for (std::size_t end : AhpClusterEnds(sorted, 2.0 * sensitivity * sensitivity / (epsilon2 * epsilon2))) {
    release.groups.push_back({{order.begin() + static_cast<long>(start), order.begin() + static_cast<long>(end) + 1}, 0});
    start = end + 1;
  }
  PublishGroupMeans(counts, second, random, release);
  return release;
}

}  // namespace deniable
