#include "core/kinds/block/block_marginals.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/frequency/norm_sub.h"
#include "core/kinds/block/calibration_units.h"
#include "core/kinds/block/pmoue.h"

namespace deniable {
namespace {

struct UnitCounts {
  std::vector<double> count, variance;
};

std::vector<double> BitCounts(const BlockGroup& unit, int size) {
  std::vector<double> counts;
  for (int b = 0; b < size; ++b) counts.push_back(static_cast<double>(unit.cooccurrences[static_cast<std::size_t>(b)]));
  return counts;
}

// A unit calibrated by its own row sums: q from them, and the delta-method
// variance that counts q's estimation (header).
UnitCounts OwnCalibration(const BlockGroup& unit, int size, double q) {
  const double s = static_cast<double>(unit.s);
  const double gap = 0.5 - q;
  UnitCounts result;
  const std::vector<double> bits = BitCounts(unit, size);
  for (double bit_count : bits) {
    const double count = (bit_count - s * q) / gap;
    result.count.push_back(count);
    result.variance.push_back(CalibratedCountVariance(s, count, size, q));
  }
  return result;
}

// Debiased with a q that is not estimated from these reports (paper mode's
// q(e), or a small unit's borrowed q): the randomisation's variance given q.
UnitCounts KnownQ(const BlockGroup& unit, int size, double q) {
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

// A held unit: counts held to [0, s], variance to s^2 (calibration_units.h).
// Its q is borrowed from the precise groups of the nearest m (known, as far
// as it is concerned) or, when no group is precise, estimated from its own reports.
UnitCounts Held(const CalibrationUnit& unit, int size, double q) {
  const double s = static_cast<double>(unit.s);
  UnitCounts result = unit.borrowed ? KnownQ(unit, size, q) : OwnCalibration(unit, size, q);
  for (std::size_t b = 0; b < result.count.size(); ++b) {
    result.count[b] = std::clamp(result.count[b], 0.0, s);
    result.variance[b] = std::min(result.variance[b], s * s);
  }
  return result;
}

}  // namespace

MarginalEstimate EstimateMarginal(const BlockAggregate& aggregate, int attribute, BlockMode mode,
                                  double epsilon_per_attribute, IntervalTarget target) {
  const std::uint32_t set = std::uint32_t{1} << attribute;
  const int size = aggregate.sizes()[static_cast<std::size_t>(attribute)];
  MarginalEstimate estimate;
  std::vector<double> count(static_cast<std::size_t>(size), 0.0), variance(static_cast<std::size_t>(size), 0.0);
  double weighted_q = 0.0;
  auto add = [&](const BlockGroup& unit, double q, const UnitCounts& counts) {
    estimate.n += unit.s;
    for (std::size_t b = 0; b < count.size(); ++b) {
      count[b] += counts.count[b];
      variance[b] += counts.variance[b];
    }
    weighted_q += static_cast<double>(unit.s) * q;
  };
  if (mode == BlockMode::kPaper) {
    const BlockGroup pooled = PooledGroup(aggregate, set);
    const double q = OueQ(epsilon_per_attribute);
    if (pooled.s > 0) add(pooled, q, KnownQ(pooled, size, q));
  } else {
    for (const CalibrationUnit& unit : CalibrationUnits(aggregate, set)) {
      const double q = unit.q.mean[0];
      add(unit, q, unit.held ? Held(unit, size, q) : OwnCalibration(unit, size, q));
    }
  }
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double n = static_cast<double>(estimate.n);
  estimate.average_q = n > 0 ? weighted_q / n : nan;
  std::vector<double> frequencies;
  for (std::size_t b = 0; b < count.size(); ++b) {
    OptionEstimate option{nan, nan, nan, nan, nan, nan};
    if (estimate.n > 0) {
      option.count = count[b];
      option.frequency = count[b] / n;
      const double sampling = target == IntervalTarget::kPopulation ? SamplingVariance(count[b], n) : 0.0;
      option.std_error = std::sqrt(variance[b] + sampling) / n;
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

double CalibratedCountVariance(double s, double count, int options, double q) {
  const double l = options;
  const double gap = 0.5 - q;
  const double row_variance = s / 4.0 + s * (l - 1.0) * q * (1.0 - q);
  const double c = std::clamp(count, 0.0, s);
  const double v = c / 4.0 + (s - c) * q * (1.0 - q);
  const double k = (c - s) / (s * (l - 1.0));
  return std::max(0.0, v * (1.0 + 2.0 * k) + k * k * row_variance) / (gap * gap);
}

double SamplingVariance(double count, double n) {
  if (!(n > 0.0)) return 0.0;
  const double share = std::clamp(count / n, 0.0, 1.0);
  return n * share * (1.0 - share);
}

}  // namespace deniable
