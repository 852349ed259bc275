#include "core/kinds/numeric/detection_limits.h"

#include <algorithm>
#include <cmath>
#include <cstddef>

namespace deniable {
namespace {

constexpr double kNormal95 = 1.959963984540054;
constexpr double kLeastProbability = 1e-12;  // output cells the fit never reaches still carry noise

// Prefix sums of the transition's columns: prefix[k] = sum of columns 0..k-1.
std::vector<std::vector<double>> ColumnPrefixSums(const TransitionMatrix& transition) {
  const auto outputs = static_cast<std::size_t>(transition.output_cells());
  std::vector<std::vector<double>> prefix(static_cast<std::size_t>(transition.input_cells()) + 1,
                                          std::vector<double>(outputs, 0.0));
  for (int i = 0; i < transition.input_cells(); ++i) {
    const double* column = transition.column(i);
    const auto k = static_cast<std::size_t>(i);
    for (std::size_t j = 0; j < outputs; ++j) prefix[k + 1][j] = prefix[k][j] + column[j];
  }
  return prefix;
}

// The share that moved evenly into cells [begin, end) the reports cannot detect.
double Undetectable(const std::vector<std::vector<double>>& prefix, const std::vector<double>& expected,
                    std::size_t begin, std::size_t end, double reported_values) {
  if (begin >= end) return 0.0;
  const double cells = static_cast<double>(end - begin);
  double chi_square_per_value = 0.0;
  for (std::size_t j = 0; j < expected.size(); ++j) {
    const double change = (prefix[end][j] - prefix[begin][j]) / cells - expected[j];
    chi_square_per_value += change * change / std::max(expected[j], kLeastProbability);
  }
  if (!(chi_square_per_value > 0.0)) return 1.0;
  return std::min(1.0, kNormal95 / std::sqrt(reported_values * chi_square_per_value));
}

}  // namespace

DetectionLimits UndetectableMass(const TransitionMatrix& transition, const std::vector<double>& fitted,
                                 double reported_values, const std::vector<double>& points) {
  const auto prefix = ColumnPrefixSums(transition);
  const std::vector<double> expected = transition.Apply(fitted);
  const NumericRange input = transition.input_range();
  const auto cells = static_cast<std::size_t>(transition.input_cells());
  const double width = input.width() / static_cast<double>(cells);
  DetectionLimits limits;
  for (double x : points) {
    // Cells whose centre is at or below x are below it.
    const double centred = std::floor((x - input.low) / width + 0.5);
    const auto split = static_cast<std::size_t>(std::clamp(centred, 0.0, static_cast<double>(cells)));
    limits.above.push_back(Undetectable(prefix, expected, split, cells, reported_values));
    limits.below.push_back(Undetectable(prefix, expected, 0, split, reported_values));
  }
  return limits;
}

BootstrapBand WidenCdfBandForUndetectableMass(const std::vector<double>& cdf, const BootstrapBand& band,
                                              const DetectionLimits& limits) {
  BootstrapBand widened = band;
  for (std::size_t k = 0; k < cdf.size(); ++k) {
    if (1.0 - cdf[k] < limits.above[k]) widened.low[k] = std::min(widened.low[k], (1.0 - limits.above[k]) * cdf[k]);
    if (cdf[k] < limits.below[k]) {
      widened.high[k] = std::max(widened.high[k], cdf[k] + limits.below[k] * (1.0 - cdf[k]));
    }
  }
  return widened;
}

}  // namespace deniable
