#include "core/distribution/empirical_comparison.h"

#include <cmath>

namespace deniable {
namespace {

double SampleQuantile(const std::vector<double>& sorted, double p) {
  const double h = static_cast<double>(sorted.size() - 1) * p;
  const auto below = static_cast<std::size_t>(std::floor(h));
  if (below + 1 >= sorted.size()) return sorted.back();
  return sorted[below] + (h - static_cast<double>(below)) * (sorted[below + 1] - sorted[below]);
}

// Integral over an interval of length `length` of |L(x)|, L linear from d0 to d1.
double AbsLinearIntegral(double d0, double d1, double length) {
  if (d0 * d1 >= 0.0) return length * (std::fabs(d0) + std::fabs(d1)) / 2.0;
  // L changes sign: two triangles with heights |d0| and |d1| on a base split in their ratio.
  return length * (d0 * d0 + d1 * d1) / (2.0 * (std::fabs(d0) + std::fabs(d1)));
}

}  // namespace

SampleSummary SummarizeSample(const std::vector<double>& sorted) {
  const double n = static_cast<double>(sorted.size());
  double sum = 0.0;
  for (double x : sorted) sum += x;
  const double mean = sum / n;
  double squares = 0.0;
  for (double x : sorted) squares += (x - mean) * (x - mean);
  return {mean, std::sqrt(squares / n), SampleQuantile(sorted, 0.5), SampleQuantile(sorted, 0.25),
          SampleQuantile(sorted, 0.75)};
}

double Wasserstein1ToSample(const GridDistribution& distribution, const std::vector<double>& sorted) {
  const NumericRange range = distribution.range;
  const std::size_t cells = distribution.probabilities.size();
  const double n = static_cast<double>(sorted.size());
  const double width = range.width() / static_cast<double>(cells);
  std::size_t below = 0;  // samples <= the current position
  while (below < sorted.size() && sorted[below] <= range.low) ++below;
  double cumulative = 0.0;  // F at the current cell's left edge
  double total = 0.0;
  for (std::size_t j = 0; j < cells; ++j) {
    const double left = range.low + range.width() * static_cast<double>(j) / static_cast<double>(cells);
    const double right = j + 1 == cells ? range.high
                                        : range.low + range.width() * static_cast<double>(j + 1) /
                                                          static_cast<double>(cells);
    const double slope = distribution.probabilities[j] / width;
    auto f = [&](double x) { return cumulative + slope * (x - left); };
    double from = left;
    while (below < sorted.size() && sorted[below] < right) {
      const double to = sorted[below];
      const double g = static_cast<double>(below) / n;
      total += AbsLinearIntegral(f(from) - g, f(to) - g, to - from);
      from = to;
      ++below;
    }
    const double g = static_cast<double>(below) / n;
    total += AbsLinearIntegral(f(from) - g, f(right) - g, right - from);
    cumulative += distribution.probabilities[j];
  }
  return total;
}

}  // namespace deniable
