#include "core/kinds/open/open_intervals.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "core/common/beta_distribution.h"

namespace deniable {
namespace {

constexpr double kOpenZ95 = 1.959963984540054;

// The bin holding the order statistic of rank `rank` (1-based, clamped to [1, n]).
std::size_t BinOfRank(const std::vector<std::int64_t>& counts, double rank) {
  const auto n = std::accumulate(counts.begin(), counts.end(), std::int64_t{0});
  const auto wanted = std::clamp<std::int64_t>(static_cast<std::int64_t>(std::ceil(rank)), 1, std::max<std::int64_t>(n, 1));
  std::int64_t seen = 0;
  for (std::size_t b = 0; b < counts.size(); ++b) {
    seen += counts[b];
    if (seen >= wanted) return b;
  }
  return counts.empty() ? 0 : counts.size() - 1;
}

}  // namespace

OpenInterval ShareInterval(std::int64_t count, std::int64_t n) {
  const double k = static_cast<double>(count), nn = static_cast<double>(n), share = k / nn;
  const double low = count == 0 ? 0.0 : BetaQuantile(0.025, k, nn - k + 1);
  const double high = count == n ? 1.0 : BetaQuantile(0.975, k + 1, nn - k);
  return {std::min(low, share), std::max(high, share)};
}

OpenInterval QuantileInterval(const std::vector<std::int64_t>& counts, double low, double width, double p) {
  const double n = static_cast<double>(std::accumulate(counts.begin(), counts.end(), std::int64_t{0}));
  const double spread = kOpenZ95 * std::sqrt(n * p * (1 - p));
  const std::size_t first = BinOfRank(counts, n * p - spread);
  const std::size_t last = BinOfRank(counts, n * p + spread + 1);
  return {low + width * static_cast<double>(first), low + width * static_cast<double>(last + 1)};
}

OpenInterval QuantileOfCounts(const std::vector<std::int64_t>& counts, double low, double width, double p) {
  const double n = static_cast<double>(std::accumulate(counts.begin(), counts.end(), std::int64_t{0}));
  const std::size_t bin = BinOfRank(counts, n * p);
  return {low + width * static_cast<double>(bin), low + width * static_cast<double>(bin + 1)};
}

}  // namespace deniable
