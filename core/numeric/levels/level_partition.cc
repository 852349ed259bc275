#include "core/numeric/levels/level_partition.h"

#include <algorithm>
#include <functional>

#include "core/common/validation.h"

namespace deniable {

LevelPartition::LevelPartition(NumericRange range, std::vector<double> boundaries, std::vector<double> epsilons)
    : range_(range), boundaries_(std::move(boundaries)), interval_epsilons_(std::move(epsilons)) {
  level_epsilons_ = interval_epsilons_;
  std::sort(level_epsilons_.begin(), level_epsilons_.end(), std::greater<double>());
  level_epsilons_.erase(std::unique(level_epsilons_.begin(), level_epsilons_.end()), level_epsilons_.end());
  for (double epsilon : interval_epsilons_) {
    const auto at = std::find(level_epsilons_.begin(), level_epsilons_.end(), epsilon);
    interval_level_.push_back(static_cast<int>(at - level_epsilons_.begin()));
  }
}

Result<LevelPartition> LevelPartition::Create(NumericRange range, std::vector<double> boundaries,
                                              std::vector<double> epsilons) {
  DENIABLE_TRY(ValidateNumericRange(range));
  if (epsilons.size() != boundaries.size() + 1) {
    return MakeError("epsilons: needs one epsilon per interval: " + std::to_string(boundaries.size()) +
                     " boundaries make " + std::to_string(boundaries.size() + 1) + " intervals, but there are " +
                     std::to_string(epsilons.size()) + " epsilons");
  }
  if (epsilons.size() > static_cast<std::size_t>(kMaxLevelIntervals)) {
    return MakeError("boundaries: at most " + std::to_string(kMaxLevelIntervals - 1) + " boundaries (" +
                     std::to_string(kMaxLevelIntervals) + " intervals), but there are " +
                     std::to_string(boundaries.size()));
  }
  double previous = range.low;
  for (std::size_t i = 0; i < boundaries.size(); ++i) {
    const double boundary = boundaries[i];
    if (!(boundary > previous) || !(boundary < range.high)) {
      return MakeError("boundaries[" + std::to_string(i) + "]: must be increasing and inside (" +
                       FormatNumber(range.low) + ", " + FormatNumber(range.high) + "), but is " +
                       FormatNumber(boundary));
    }
    previous = boundary;
  }
  for (std::size_t i = 0; i < epsilons.size(); ++i) {
    if (auto valid = ValidateEpsilon(epsilons[i]); !valid) {
      return MakeError("epsilons[" + std::to_string(i) + "]: " + valid.error());
    }
  }
  return LevelPartition(range, std::move(boundaries), std::move(epsilons));
}

int LevelPartition::IntervalOf(double x) const {
  // The number of boundaries at or below x: [b_i, b_{i+1}) is interval i + 1.
  return static_cast<int>(std::upper_bound(boundaries_.begin(), boundaries_.end(), x) - boundaries_.begin());
}

double LevelPartition::Normalise(double x) const {
  return std::clamp(2.0 * (x - range_.low) / range_.width() - 1.0, -1.0, 1.0);
}

NumericRange LevelPartition::IntervalRange(int interval) const {
  const auto i = static_cast<std::size_t>(interval);
  return {i == 0 ? range_.low : boundaries_[i - 1], i == boundaries_.size() ? range_.high : boundaries_[i]};
}

std::vector<NormalisedSpan> LevelPartition::LevelSpans(int level) const {
  std::vector<NormalisedSpan> spans;
  for (int interval = 0; interval < intervals(); ++interval) {
    if (LevelOfInterval(interval) != level) continue;
    const NumericRange ends = IntervalRange(interval);
    spans.push_back({Normalise(ends.low), Normalise(ends.high)});
  }
  return spans;
}

}  // namespace deniable
