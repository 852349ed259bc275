#include "core/kinds/histogram/level_estimates.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace deniable {
namespace {

constexpr double kUnknown = std::numeric_limits<double>::infinity();

}  // namespace

LevelEstimates::LevelEstimates(TreeShape shape, SupportProbabilities pq, int cells, std::vector<LevelCounts> levels)
    : shape_(shape), pq_(pq), cells_(cells), levels_(std::move(levels)) {
  for (const LevelCounts& level : levels_) {
    n_ += level.n;
    std::vector<double> frequencies(level.counts.size(), 0.0);
    for (std::size_t v = 0; v < frequencies.size() && level.n > 0; ++v) {
      frequencies[v] = (static_cast<double>(level.counts[v]) / static_cast<double>(level.n) - pq_.q) / (pq_.p - pq_.q);
    }
    frequencies_.push_back(std::move(frequencies));
  }
  consistent_ = n_ > 0 ? ConsistentLeaves(shape_, frequencies_, NodeVariances(), cells_)
                       : std::vector<double>(static_cast<std::size_t>(cells_), std::nan(""));
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
  for (const TreeNode& node : Decompose(shape_, first, end, usable)) {
    if (node.level > 0) variance += variances[static_cast<std::size_t>(node.level) - 1];
  }
  return variance;
}

RangeEstimate LevelEstimates::Range(int first, int end) const {
  const auto usable = [this](int level) { return levels_[static_cast<std::size_t>(level) - 1].n > 0; };
  std::vector<double> covered(levels_.size() + 1, 0.0);
  std::vector<int> nodes(levels_.size() + 1, 0);
  for (const TreeNode& node : Decompose(shape_, first, end, usable)) {
    if (node.level == 0) return {1.0, 0.0};  // every cell: all of the answers
    covered[static_cast<std::size_t>(node.level)] += frequencies_[static_cast<std::size_t>(node.level) - 1][static_cast<std::size_t>(node.index)];
    ++nodes[static_cast<std::size_t>(node.level)];
  }
  RangeEstimate range;
  const double gap = pq_.p - pq_.q;
  const auto n = static_cast<double>(n_);
  for (std::size_t level = 1; level < covered.size(); ++level) {
    if (nodes[level] == 0) continue;
    const auto n_level = static_cast<double>(levels_[level - 1].n);
    if (n_level == 0.0) return {std::nan(""), kUnknown};
    range.frequency += covered[level];
    const double share = std::clamp(covered[level], 0.0, 1.0);
    const double ones = share * n_level;
    range.variance += (ones * pq_.p * (1.0 - pq_.p) + (nodes[level] * n_level - ones) * pq_.q * (1.0 - pq_.q)) /
                      (n_level * n_level * gap * gap);
    if (n > 1.0) range.variance += share * (1.0 - share) * (n - n_level) / (n_level * (n - 1.0));
  }
  return range;
}

}  // namespace deniable
