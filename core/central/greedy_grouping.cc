#include "core/central/greedy_grouping.h"

#include <algorithm>
#include <cmath>

namespace deniable {
namespace {

// Relative margin of the strict comparison (prefix sums and direct sums differ by ~1e-15 relative).
constexpr double kTieTolerance = 1e-9;

// Prefix sums over the sorted values: P of V, A of 1/w, B of V/w (index i = sum of the first i).
struct PrefixSums {
  std::vector<double> value, inverse_weight, value_over_weight;
};

PrefixSums MakePrefixSums(const std::vector<double>& sorted, double delta) {
  PrefixSums sums;
  sums.value.assign(sorted.size() + 1, 0.0);
  sums.inverse_weight.assign(sorted.size() + 1, 0.0);
  sums.value_over_weight.assign(sorted.size() + 1, 0.0);
  for (std::size_t t = 0; t < sorted.size(); ++t) {
    const double weight = std::max(sorted[t], delta);
    sums.value[t + 1] = sums.value[t] + sorted[t];
    sums.inverse_weight[t + 1] = sums.inverse_weight[t] + 1.0 / weight;
    sums.value_over_weight[t + 1] = sums.value_over_weight[t] + sorted[t] / weight;
  }
  return sums;
}

// Tot of the slice [l, r] (0-based, inclusive) in O(log n): with c its mean and
// q the first position whose value exceeds c, sum |V - c|/w =
// c (A_{<q} - A_{>=q}) - (B_{<q} - B_{>=q}).
double Tot(const std::vector<double>& sorted, const PrefixSums& sums, std::size_t l, std::size_t r, double lambda) {
  const double m = static_cast<double>(r - l + 1);
  const double mean = (sums.value[r + 1] - sums.value[l]) / m;
  const auto q = static_cast<std::size_t>(std::upper_bound(sorted.begin() + static_cast<long>(l),
                                                           sorted.begin() + static_cast<long>(r) + 1, mean) -
                                          sorted.begin());
  const double a_below = sums.inverse_weight[q] - sums.inverse_weight[l];
  const double a_above = sums.inverse_weight[r + 1] - sums.inverse_weight[q];
  const double b_below = sums.value_over_weight[q] - sums.value_over_weight[l];
  const double b_above = sums.value_over_weight[r + 1] - sums.value_over_weight[q];
  const double deviations = std::max(0.0, mean * (a_below - a_above) - (b_below - b_above));
  return deviations + lambda / m * (a_below + a_above);
}

double TotBruteForce(const std::vector<double>& sorted, std::size_t l, std::size_t r, double lambda, double delta) {
  const double m = static_cast<double>(r - l + 1);
  double mean = 0.0;
  for (std::size_t t = l; t <= r; ++t) mean += sorted[t] / m;
  double total = 0.0;
  for (std::size_t t = l; t <= r; ++t) total += (std::fabs(sorted[t] - mean) + lambda / m) / std::max(sorted[t], delta);
  return total;
}

template <typename TotOf>
std::vector<std::size_t> Group(const std::vector<double>& sorted, double lambda, double delta, TotOf tot) {
  std::vector<std::size_t> ends;
  const std::size_t n = sorted.size();
  if (n == 0) return ends;
  std::size_t l = 0;
  double current = tot(0, 0);
  for (std::size_t r = 1; r < n; ++r) {
    const double joined = tot(l, r);
    // 1-based r + 1: n - (r + 1) + 1 = n - r bins from the candidate to the end.
    const double bound = lambda / (static_cast<double>(n - r) * std::max(sorted[r], delta));
    // Strict, as the paper's test, and robust to rounding: an exact tie (the
    // digest's toy example has one at lambda = 1) must not merge whether Tot
    // came from prefix sums or from a direct sum.
    if (joined < (current + bound) * (1.0 - kTieTolerance)) {
      current = joined;
    } else {
      ends.push_back(r - 1);
      l = r;
      current = tot(r, r);
    }
  }
  ends.push_back(n - 1);
  return ends;
}

}  // namespace

std::vector<std::size_t> GreedyGroupEnds(const std::vector<double>& sorted, double lambda, double delta) {
  const PrefixSums sums = MakePrefixSums(sorted, delta);
  return Group(sorted, lambda, delta,
               [&](std::size_t l, std::size_t r) { return Tot(sorted, sums, l, r, lambda); });
}

std::vector<std::size_t> GreedyGroupEndsBruteForce(const std::vector<double>& sorted, double lambda, double delta) {
  return Group(sorted, lambda, delta,
               [&](std::size_t l, std::size_t r) { return TotBruteForce(sorted, l, r, lambda, delta); });
}

}  // namespace deniable
