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

// The change in expected output probabilities per unit share moved evenly into input cells [begin, end).
std::vector<double> ChangeForMove(const std::vector<std::vector<double>>& prefix, const std::vector<double>& expected,
                                  std::size_t begin, std::size_t end) {
  const double cells = static_cast<double>(end - begin);
  std::vector<double> change(expected.size());
  for (std::size_t j = 0; j < expected.size(); ++j) change[j] = (prefix[end][j] - prefix[begin][j]) / cells - expected[j];
  return change;
}

// The compensation c >= 0 that makes `moved` + c * `balance` least
// detectable (the linear chi-square's minimum over c).
double LeastDetectableCompensation(const std::vector<double>& moved, const std::vector<double>& balance,
                                   const std::vector<double>& expected) {
  double cross = 0.0, norm = 0.0;
  for (std::size_t j = 0; j < expected.size(); ++j) {
    const double variance = std::max(expected[j], kLeastProbability);
    cross += moved[j] * balance[j] / variance;
    norm += balance[j] * balance[j] / variance;
  }
  return norm > 0.0 ? std::max(0.0, -cross / norm) : 0.0;
}

// The largest share along `direction` the reports cannot detect. The
// chi-square's variance is the moved distribution's, not the fit's: where
// the fit expects no reports at all, a few of them are all the evidence
// there is (Poisson, not normal), and the fit's variance there (nearly 0)
// made a share of 1e-6 "detectable" (answers 1% in a tail beyond 250 of
// [0, 1000], n = 300: the band held them at 85% of points).
double UndetectableShare(const std::vector<double>& direction, const std::vector<double>& expected,
                         double reported_values, double most) {
  auto chi_square = [&](double share) {
    double sum = 0.0;
    for (std::size_t j = 0; j < expected.size(); ++j) {
      const double change = share * direction[j];
      sum += change * change / std::max(expected[j] + change, kLeastProbability);
    }
    return reported_values * sum;
  };
  constexpr double kCritical = kNormal95 * kNormal95;
  if (chi_square(most) <= kCritical) return most;
  double low = 0.0, high = most;  // chi_square rises with the share: bisect for the critical value
  for (int step = 0; step < 40; ++step) {
    const double middle = 0.5 * (low + high);
    (chi_square(middle) > kCritical ? high : low) = middle;
  }
  return high;
}

// A share moved evenly into [begin, end), with mass added to the far end
// cell `balance_cell` so that the move is as hard to see as it can be: a
// tail the fit lacks, its mean kept by more mass at the other end (answers
// 60% at 0 with an exponential tail, under Laplace noise 100 times the
// tail's scale: the fit squeezed them into one bump with the same mean, and
// the plain move, which shifts the mean, was "detectable" at a third of the
// tail the fit had lost).
UndetectableMove Undetectable(const std::vector<std::vector<double>>& prefix, const std::vector<double>& expected,
                              std::size_t begin, std::size_t end, std::size_t balance_cell, double reported_values) {
  if (begin >= end) return {0.0, 0.0};
  const std::vector<double> moved = ChangeForMove(prefix, expected, begin, end);
  const std::vector<double> balance = ChangeForMove(prefix, expected, balance_cell, balance_cell + 1);
  const double compensation = LeastDetectableCompensation(moved, balance, expected);
  std::vector<double> direction(expected.size());
  for (std::size_t j = 0; j < expected.size(); ++j) direction[j] = moved[j] + compensation * balance[j];
  // The moved distribution (1 - share (1 + compensation)) f + share u + share compensation e stays a distribution.
  return {UndetectableShare(direction, expected, reported_values, 1.0 / (1.0 + compensation)), compensation};
}

// The least detectable of the moves into the cells on one side of the split
// (all of them, or the eighth, quarter or half nearest the split: a tail
// that falls off beyond the point hides better than one spread evenly to
// the range's end), compensated at the range's far end.
UndetectableMove LeastDetectable(const std::vector<std::vector<double>>& prefix, const std::vector<double>& expected,
                                 std::size_t split, bool above, double reported_values) {
  const std::size_t cells = prefix.size() - 1;
  const std::size_t side = above ? cells - split : split;
  if (side == 0) return {0.0, 0.0};
  const std::size_t balance_cell = above ? 0 : cells - 1;
  UndetectableMove least{0.0, 0.0};
  for (std::size_t parts : {1, 2, 4, 8}) {
    const std::size_t nearest = std::max<std::size_t>(1, side / parts);
    const std::size_t begin = above ? split : split - nearest;
    const UndetectableMove move =
        Undetectable(prefix, expected, begin, begin + nearest, balance_cell, reported_values);
    if (move.share > least.share) least = move;
  }
  return least;
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
    limits.above.push_back(LeastDetectable(prefix, expected, split, true, reported_values));
    limits.below.push_back(LeastDetectable(prefix, expected, split, false, reported_values));
  }
  return limits;
}

BootstrapBand WidenCdfBandForUndetectableMass(const std::vector<double>& cdf, const BootstrapBand& band,
                                              const DetectionLimits& limits) {
  BootstrapBand widened = band;
  for (std::size_t k = 0; k < cdf.size(); ++k) {
    const UndetectableMove& above = limits.above[k];
    if (1.0 - cdf[k] < above.share) {
      // share (1 + compensation) F(x) leaves from below x; share * compensation comes back at the low end.
      const double lost = above.share * std::max(0.0, (1.0 + above.compensation) * cdf[k] - above.compensation);
      widened.low[k] = std::min(widened.low[k], cdf[k] - lost);
    }
    const UndetectableMove& below = limits.below[k];
    if (cdf[k] < below.share) {
      const double gained =
          below.share * std::max(0.0, (1.0 + below.compensation) * (1.0 - cdf[k]) - below.compensation);
      widened.high[k] = std::max(widened.high[k], cdf[k] + gained);
    }
  }
  return widened;
}

}  // namespace deniable
