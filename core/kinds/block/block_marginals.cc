#include "core/kinds/block/block_marginals.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/frequency/norm_sub.h"
#include "core/kinds/block/calibration_units.h"
#include "core/kinds/block/pmoue.h"

namespace deniable {
namespace {

// q stays below 1/2 so that 1/2 - q is a usable divisor (a unit whose row
// sums say q >= 1/2 carries no information; its estimates become wide).
constexpr double kLargestQ = 0.5 - 1e-6;

struct UnitCounts {
  std::vector<double> count, variance;
};

std::vector<double> BitCounts(const BlockGroup& unit, int size) {
  std::vector<double> counts;
  for (int b = 0; b < size; ++b) counts.push_back(static_cast<double>(unit.cooccurrences[static_cast<std::size_t>(b)]));
  return counts;
}

UnitCounts Calibrated(const BlockGroup& unit, int size) {
  const double s = static_cast<double>(unit.s), l = size;
  const double q = std::clamp((unit.row_sum_moments[1] / s - 0.5) / (l - 1.0), 0.0, kLargestQ);
  const double gap = 0.5 - q;
  UnitCounts result;
  const std::vector<double> bits = BitCounts(unit, size);
  const double row_variance = s / 4.0 + s * (l - 1.0) * q * (1.0 - q);
  for (double bit_count : bits) {
    const double count = (bit_count - s * q) / gap;
    const double c = std::clamp(count, 0.0, s);
    const double v = c / 4.0 + (s - c) * q * (1.0 - q);
    const double k = (c - s) / (s * (l - 1.0));
    result.count.push_back(count);
    result.variance.push_back(std::max(0.0, v * (1.0 + 2.0 * k) + k * k * row_variance) / (gap * gap));
  }
  return result;
}

UnitCounts Paper(const BlockGroup& unit, int size, double q) {
  const double s = static_cast<double>(unit.s);
  const double gap = 0.5 - q;
  UnitCounts result;
  for (double bit_count : BitCounts(unit, size)) {
    const double count = (bit_count - s * q) / gap;
    const double c = std::clamp(count, 0.0, s);
    result.count.push_back(count);
    result.variance.push_back((c / 4.0 + (s - c) * q * (1.0 - q)) / (gap * gap));
  }
  return result;
}

double UnitQ(const BlockGroup& unit, int size) {
  return std::clamp((unit.row_sum_moments[1] / static_cast<double>(unit.s) - 0.5) / (size - 1.0), 0.0, kLargestQ);
}

}  // namespace

MarginalEstimate EstimateMarginal(const BlockAggregate& aggregate, int attribute, BlockMode mode,
                                  double epsilon_per_attribute) {
  const std::uint32_t set = std::uint32_t{1} << attribute;
  const int size = aggregate.sizes()[static_cast<std::size_t>(attribute)];
  MarginalEstimate estimate;
  std::vector<double> count(static_cast<std::size_t>(size), 0.0), variance(static_cast<std::size_t>(size), 0.0);
  double weighted_q = 0.0;
  const std::vector<BlockGroup> units =
      mode == BlockMode::kPaper ? std::vector<BlockGroup>{PooledGroup(aggregate, set)} : CalibrationUnits(aggregate, set);
  for (const BlockGroup& unit : units) {
    if (unit.s == 0) continue;
    estimate.n += unit.s;
    const UnitCounts counts =
        mode == BlockMode::kPaper ? Paper(unit, size, OueQ(epsilon_per_attribute)) : Calibrated(unit, size);
    for (std::size_t b = 0; b < count.size(); ++b) {
      count[b] += counts.count[b];
      variance[b] += counts.variance[b];
    }
    weighted_q += static_cast<double>(unit.s) * UnitQ(unit, size);
  }
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double n = static_cast<double>(estimate.n);
  estimate.average_q = mode == BlockMode::kPaper ? OueQ(epsilon_per_attribute) : (n > 0 ? weighted_q / n : nan);
  std::vector<double> frequencies;
  for (std::size_t b = 0; b < count.size(); ++b) {
    OptionEstimate option{nan, nan, nan, nan, nan, nan};
    if (estimate.n > 0) {
      option.count = count[b];
      option.frequency = count[b] / n;
      option.std_error = std::sqrt(variance[b]) / n;
      option.ci_low = option.frequency - kZ95 * option.std_error;
      option.ci_high = option.frequency + kZ95 * option.std_error;
    }
    frequencies.push_back(option.frequency);
    estimate.options.push_back(option);
  }
  if (estimate.n > 0) {
    const std::vector<double> consistent = NormSub(frequencies, 1.0);
    for (std::size_t b = 0; b < consistent.size(); ++b) estimate.options[b].consistent_frequency = consistent[b];
  }
  return estimate;
}

}  // namespace deniable
