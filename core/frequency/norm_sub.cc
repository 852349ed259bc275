#include "core/frequency/norm_sub.h"

#include <algorithm>
#include <functional>

namespace deniable {

std::vector<double> NormSub(const std::vector<double>& estimates, double total) {
  if (estimates.empty()) return {};
  // With the values sorted in decreasing order, try keeping the top m positive:
  // delta = (total - sum of top m) / m; the right m is the largest for which
  // the m-th value plus delta stays positive. O(k log k).
  std::vector<double> sorted = estimates;
  std::sort(sorted.begin(), sorted.end(), std::greater<>());
  double prefix = 0.0;
  double delta = 0.0;
  for (std::size_t m = 1; m <= sorted.size(); ++m) {
    prefix += sorted[m - 1];
    const double candidate = (total - prefix) / static_cast<double>(m);
    if (sorted[m - 1] + candidate > 0.0 || m == 1) delta = candidate;
    else break;
  }
  std::vector<double> result;
  result.reserve(estimates.size());
  for (double value : estimates) result.push_back(std::max(value + delta, 0.0));
  return result;
}

}  // namespace deniable
