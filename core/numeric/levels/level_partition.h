// The privacy levels of an answer range (seed 003, Hao et al. 2023, §3.2):
// [a, b] is cut at boundaries b_1 < ... < b_{m-1} into m intervals
// [a, b_1), [b_1, b_2), ..., [b_{m-1}, b] (half-open, the last closed), each
// with its own epsilon. Intervals with the same epsilon are one privacy level
// (nothing in the mechanism needs a level to be contiguous: income's two
// extremes can share the strictest one). Levels are ordered as the paper
// re-indexes them: level 0 the most lenient (largest epsilon), level k-1 the
// strictest.
//
// Answers are normalised as the paper does, v = 2 (x - a)/(b - a) - 1 in
// [-1, 1], clipped. Client and server use this one map.
#pragma once

#include <string>
#include <vector>

#include "core/common/result.h"
#include "core/numeric/numeric_mechanism.h"

namespace deniable {

inline constexpr int kMaxLevelIntervals = 16;

// A closed span of normalised answers [low, high] within [-1, 1].
struct NormalisedSpan {
  double low;
  double high;
};

class LevelPartition {
 public:
  // boundaries strictly increasing, strictly inside (a, b); one epsilon per
  // interval (boundaries.size() + 1 of them), each a valid epsilon; at most
  // kMaxLevelIntervals intervals. Errors name the field ("boundaries",
  // "epsilons") and the value.
  static Result<LevelPartition> Create(NumericRange range, std::vector<double> boundaries,
                                       std::vector<double> epsilons);

  NumericRange range() const { return range_; }
  const std::vector<double>& boundaries() const { return boundaries_; }
  // Per interval, in the order of the definition.
  const std::vector<double>& interval_epsilons() const { return interval_epsilons_; }
  // The distinct epsilons, largest first: level_epsilons()[t] is level t's budget.
  const std::vector<double>& level_epsilons() const { return level_epsilons_; }
  int levels() const { return static_cast<int>(level_epsilons_.size()); }
  int intervals() const { return static_cast<int>(interval_epsilons_.size()); }

  // The interval holding x (x in [a, b]): half-open, the last closed.
  int IntervalOf(double x) const;
  int LevelOfInterval(int interval) const { return interval_level_[static_cast<std::size_t>(interval)]; }
  int LevelOf(double x) const { return LevelOfInterval(IntervalOf(x)); }
  // v in [-1, 1].
  double Normalise(double x) const;
  // The raw-unit ends of an interval.
  NumericRange IntervalRange(int interval) const;
  // The closures of a level's intervals, normalised: where its answers lie.
  std::vector<NormalisedSpan> LevelSpans(int level) const;

 private:
  LevelPartition(NumericRange range, std::vector<double> boundaries, std::vector<double> epsilons);

  NumericRange range_;
  std::vector<double> boundaries_;
  std::vector<double> interval_epsilons_;
  std::vector<double> level_epsilons_;
  std::vector<int> interval_level_;
};

}  // namespace deniable
