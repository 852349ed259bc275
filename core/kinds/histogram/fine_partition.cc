#include "core/kinds/histogram/fine_partition.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "core/common/validation.h"

namespace deniable {
namespace {

constexpr std::int64_t kMaxDenominator = 1000000000;
constexpr double kFractionTolerance = 1e-12;

RangeFraction Reduced(std::int64_t numerator, std::int64_t denominator) {
  const std::int64_t divisor = std::gcd(numerator, denominator);
  return {numerator / divisor, denominator / divisor};
}

double ValueAt(const RangeFraction& fraction, NumericRange range) {
  if (fraction.numerator == fraction.denominator) return range.high;  // exact ends
  if (fraction.numerator == 0) return range.low;
  return range.low + range.width() * (static_cast<double>(fraction.numerator) / static_cast<double>(fraction.denominator));
}

}  // namespace

std::vector<RangeFraction> EqualBinBoundaries(int bins) {
  std::vector<RangeFraction> boundaries;
  for (int k = 0; k <= bins; ++k) boundaries.push_back(Reduced(k, bins));
  return boundaries;
}

Result<RangeFraction> BoundaryFraction(double edge, NumericRange range) {
  const double t = (edge - range.low) / range.width();
  if (!(t >= 0.0 && t <= 1.0)) return MakeError(FormatNumber(edge) + " is outside the range");
  // Continued-fraction convergents of t, until one is within the tolerance.
  std::int64_t previous_numerator = 0, previous_denominator = 1, numerator = 1, denominator = 0;
  double rest = t;
  for (int step = 0; step < 64; ++step) {
    const double whole = std::floor(rest);
    const auto a = static_cast<std::int64_t>(whole);
    const std::int64_t next_numerator = a * numerator + previous_numerator;
    const std::int64_t next_denominator = a * denominator + previous_denominator;
    if (next_denominator > kMaxDenominator) break;
    previous_numerator = numerator, previous_denominator = denominator;
    numerator = next_numerator, denominator = next_denominator;
    if (std::fabs(static_cast<double>(numerator) / static_cast<double>(denominator) - t) <= kFractionTolerance) {
      return Reduced(numerator, denominator);
    }
    if (rest - whole <= 0.0) break;
    rest = 1.0 / (rest - whole);
  }
  return MakeError(FormatNumber(edge) + " is not a simple fraction of the range (no denominator up to 10^9 gives it)");
}

FinePartition::FinePartition(NumericRange range, std::vector<RangeFraction> boundaries)
    : range_(range), boundaries_(std::move(boundaries)) {
  for (const RangeFraction& boundary : boundaries_) values_.push_back(ValueAt(boundary, range_));
}

Result<FinePartition> FinePartition::Merge(NumericRange range,
                                           const std::vector<std::vector<RangeFraction>>& consumers) {
  std::vector<RangeFraction> merged = {RangeFraction{0, 1}, RangeFraction{1, 1}};
  for (const auto& consumer : consumers) merged.insert(merged.end(), consumer.begin(), consumer.end());
  std::sort(merged.begin(), merged.end());
  merged.erase(std::unique(merged.begin(), merged.end()), merged.end());
  const auto cells = static_cast<std::int64_t>(merged.size()) - 1;
  if (cells > kMaxFineCells) {
    return MakeError("the histograms' boundaries together make " + std::to_string(cells) +
                     " fine cells; at most " + std::to_string(kMaxFineCells) + " are allowed");
  }
  return FinePartition(range, std::move(merged));
}

int FinePartition::CellOf(double x) const {
  if (!(x > range_.low)) return 0;
  if (x >= range_.high) return cells() - 1;
  // The last boundary value <= x starts x's cell.
  const auto after = std::upper_bound(values_.begin(), values_.end(), x);
  return static_cast<int>(after - values_.begin()) - 1;
}

std::vector<int> FinePartition::BinStarts(const std::vector<RangeFraction>& consumer) const {
  std::vector<int> starts;
  for (const RangeFraction& boundary : consumer) {
    const auto at = std::lower_bound(boundaries_.begin(), boundaries_.end(), boundary);
    starts.push_back(static_cast<int>(at - boundaries_.begin()));
  }
  return starts;
}

}  // namespace deniable
