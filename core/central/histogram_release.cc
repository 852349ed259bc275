#include "core/central/histogram_release.h"

#include <algorithm>
#include <numeric>

#include "core/central/discrete_laplace.h"
#include "core/central/greedy_grouping.h"
#include "core/common/validation.h"

namespace deniable {
namespace {

Status ValidateCounts(const std::vector<std::int64_t>& counts) {
  if (counts.empty()) return MakeError("the histogram has no bins");
  for (std::int64_t count : counts) {
    if (count < 0) return MakeError("counts must be non-negative");
  }
  return OkStatus();
}

}  // namespace

void PublishGroupMeans(const std::vector<std::int64_t>& counts, const DiscreteLaplace& noise, RandomSource& random,
                       HistogramRelease& release) {
  release.values.assign(counts.size(), 0.0);
  for (ReleaseGroup& group : release.groups) {
    std::int64_t sum = 0;
    for (std::size_t bin : group.bins) sum += counts[bin];
    group.noise = noise.Draw(random);
    const double value = static_cast<double>(sum + group.noise) / static_cast<double>(group.bins.size());
    for (std::size_t bin : group.bins) release.values[bin] = value;
  }
}

std::vector<std::vector<std::size_t>> PartitionFromNoisy(const std::vector<std::int64_t>& noisy, double lambda,
                                                         double delta) {
  std::vector<std::size_t> order(noisy.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return noisy[a] < noisy[b]; });
  std::vector<double> sorted;
  for (std::size_t bin : order) sorted.push_back(static_cast<double>(noisy[bin]));
  std::vector<std::vector<std::size_t>> groups;
  std::size_t start = 0;
  for (std::size_t end : GreedyGroupEnds(sorted, lambda, delta)) {
    groups.emplace_back(order.begin() + static_cast<long>(start), order.begin() + static_cast<long>(end) + 1);
    start = end + 1;
  }
  return groups;
}

Result<HistogramRelease> ReleaseSrebGca(const std::vector<std::int64_t>& counts, const SrebGcaParameters& parameters,
                                        RandomSource& random) {
  DENIABLE_TRY(ValidateCounts(counts));
  DENIABLE_TRY(ValidateEpsilon(parameters.epsilon));
  if (!(parameters.rho > 0.0 && parameters.rho < 1.0)) return MakeError("rho must be in (0, 1)");
  if (!(parameters.delta > 0.0)) return MakeError("delta must be positive");
  const double epsilon1 = parameters.rho * parameters.epsilon;
  const double epsilon2 = parameters.epsilon - epsilon1;
  DENIABLE_ASSIGN_OR_RETURN(auto first, DiscreteLaplace::Create(epsilon1, parameters.sensitivity));
  DENIABLE_ASSIGN_OR_RETURN(auto second, DiscreteLaplace::Create(epsilon2, parameters.sensitivity));
  HistogramRelease release;
  for (std::int64_t count : counts) release.first_phase.push_back(count + first.Draw(random));
  const double lambda = static_cast<double>(parameters.sensitivity) / epsilon2;
  for (auto& bins : PartitionFromNoisy(release.first_phase, lambda, parameters.delta)) {
    release.groups.push_back({std::move(bins), 0});
  }
  PublishGroupMeans(counts, second, random, release);
  return release;
}

Result<HistogramRelease> ReleaseDpBase(const std::vector<std::int64_t>& counts, double epsilon,
                                       std::int64_t sensitivity, RandomSource& random) {
  DENIABLE_TRY(ValidateCounts(counts));
  DENIABLE_TRY(ValidateEpsilon(epsilon));
  DENIABLE_ASSIGN_OR_RETURN(auto noise, DiscreteLaplace::Create(epsilon, sensitivity));
  HistogramRelease release;
  for (std::size_t bin = 0; bin < counts.size(); ++bin) release.groups.push_back({{bin}, 0});
  PublishGroupMeans(counts, noise, random, release);
  return release;
}

}  // namespace deniable
