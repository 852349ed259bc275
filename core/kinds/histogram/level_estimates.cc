#include "core/kinds/histogram/level_estimates.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/kinds/histogram/consumer_bins.h"
#include "core/kinds/histogram/subtree_norm_sub.h"

namespace deniable {
namespace {

constexpr double kUnknown = std::numeric_limits<double>::infinity();

}  // namespace

LevelEstimates::LevelEstimates(TreeShape shape, SupportProbabilities pq, int cells, std::vector<LevelCounts> levels,
                               IntervalTarget target)
    : shape_(shape), pq_(pq), cells_(cells), target_(target), levels_(std::move(levels)) {
  for (const LevelCounts& level : levels_) {
    n_ += level.n;
    std::vector<double> frequencies(level.counts.size(), 0.0);
    for (std::size_t v = 0; v < frequencies.size() && level.n > 0; ++v) {
      frequencies[v] = (static_cast<double>(level.counts[v]) / static_cast<double>(level.n) - pq_.q) / (pq_.p - pq_.q);
    }
    frequencies_.push_back(std::move(frequencies));
  }
  if (n_ == 0) {
    least_squares_.assign(static_cast<std::size_t>(cells_), std::nan(""));
    consistent_ = least_squares_;
    return;
  }
  least_squares_ = LeastSquaresLeaves(shape_, frequencies_, NodeVariances(), cells_);
  least_squares_prefix_.assign(1, 0.0);
  for (double cell : least_squares_) least_squares_prefix_.push_back(least_squares_prefix_.back() + cell);
  consistent_ = SubtreeNormSub(least_squares_, 1.0);
}

std::vector<double> LevelEstimates::NodeVariances() const {
  const double gap = pq_.p - pq_.q;
  std::vector<double> variances;
  for (const LevelCounts& level : levels_) {
    variances.push_back(level.n > 0 ? pq_.q * (1.0 - pq_.q) / (static_cast<double>(level.n) * gap * gap) : kUnknown);
  }
  return variances;
}

double LevelEstimates::PlanningVariance(int first, int end) const {
  const std::vector<double> variances = NodeVariances();
  const auto usable = [this](int level) { return levels_[static_cast<std::size_t>(level) - 1].n > 0; };
  double variance = 0.0;
  std::vector<double> covered(levels_.size() + 1, 0.0);  // per level: the estimated share of its nodes in the range
  for (const TreeNode& node : Decompose(shape_, first, end, usable)) {
    if (node.level == 0) continue;
    const auto l = static_cast<std::size_t>(node.level);
    variance += variances[l - 1];
    covered[l] += frequencies_[l - 1][static_cast<std::size_t>(node.index)];
  }
  // For the population, each level's sampling: F (1 - F) / n_l, as in DecompositionRange.
  for (std::size_t l = 1; target_ == IntervalTarget::kPopulation && l < covered.size(); ++l) {
    const double share = std::clamp(covered[l], 0.0, 1.0);
    if (levels_[l - 1].n > 0) variance += share * (1.0 - share) / static_cast<double>(levels_[l - 1].n);
  }
  return variance;
}

RangeEstimate LevelEstimates::Range(int first, int end) const {
  RangeEstimate range = DecompositionRange(first, end);
  if (shape_.height > 1 && n_ > 0 && std::isfinite(range.variance)) {
    range.frequency = least_squares_prefix_[static_cast<std::size_t>(end)] - least_squares_prefix_[static_cast<std::size_t>(first)];
  }
  return range;
}

RangeEstimate LevelEstimates::DecompositionRange(int first, int end) const {
  const auto usable = [this](int level) { return levels_[static_cast<std::size_t>(level) - 1].n > 0; };
  std::vector<double> covered(levels_.size() + 1, 0.0);
  std::vector<int> nodes(levels_.size() + 1, 0);
  for (const TreeNode& node : Decompose(shape_, first, end, usable)) {
    if (node.level == 0) return {1.0, 0.0};  // every cell: all of the answers
    covered[static_cast<std::size_t>(node.level)] += frequencies_[static_cast<std::size_t>(node.level) - 1][static_cast<std::size_t>(node.index)];
    ++nodes[static_cast<std::size_t>(node.level)];
  }
  RangeEstimate range;
  const auto n = static_cast<double>(n_);
  for (std::size_t level = 1; level < covered.size(); ++level) {
    if (nodes[level] == 0) continue;
    const auto n_level = static_cast<double>(levels_[level - 1].n);
    if (n_level == 0.0) return {std::nan(""), kUnknown};
    range.frequency += covered[level];
    const double share = std::clamp(covered[level], 0.0, 1.0);
    const double ones = share * n_level;
    range.variance += BinCountVariance(pq_, ones, nodes[level], n_level) / (n_level * n_level);
    if (target_ == IntervalTarget::kPopulation) range.variance += share * (1.0 - share) / n_level;
    else if (n > 1.0) range.variance += share * (1.0 - share) * (n - n_level) / (n_level * (n - 1.0));
  }
  return range;
}

}  // namespace deniable
