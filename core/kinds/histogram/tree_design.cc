#include "core/kinds/histogram/tree_design.h"

#include <cmath>
#include <numeric>

#include "core/common/validation.h"

namespace deniable {
namespace {

constexpr int kFanouts[] = {2, 4, 8, 16};

TreeShape ShapeFor(int fanout, int cells) {
  TreeShape shape{fanout, 1};
  while (shape.Leaves() < cells) ++shape.height;
  return shape;
}

// Nodes per level (index l - 1) that the bins decompose into.
std::vector<double> NodesPerLevel(const TreeShape& shape, const std::vector<std::pair<int, int>>& bins) {
  std::vector<double> nodes(static_cast<std::size_t>(shape.height), 0.0);
  for (const auto& [first, end] : bins) {
    for (const TreeNode& node : Decompose(shape, first, end)) {
      if (node.level > 0) nodes[static_cast<std::size_t>(node.level) - 1] += 1.0;
    }
  }
  return nodes;
}

std::vector<double> WeightsFor(const std::vector<double>& nodes) {
  const auto levels = static_cast<double>(nodes.size());
  double roots = 0.0;
  for (double c : nodes) roots += std::sqrt(c);
  std::vector<double> weights;
  for (double c : nodes) weights.push_back(0.5 / levels + (roots > 0.0 ? 0.5 * std::sqrt(c) / roots : 0.5 / levels));
  return weights;
}

}  // namespace

double DesignCost(const TreeShape& shape, const std::vector<double>& weights,
                  const std::vector<std::pair<int, int>>& bins) {
  const std::vector<double> nodes = NodesPerLevel(shape, bins);
  double cost = 0.0;
  for (std::size_t l = 0; l < nodes.size(); ++l) cost += nodes[l] / weights[l];
  return cost;
}

TreeDesign ChooseTreeDesign(int cells, const std::vector<std::pair<int, int>>& bins) {
  TreeDesign best;
  double best_cost = INFINITY;
  std::string costs;
  for (int fanout : kFanouts) {
    const TreeShape shape = ShapeFor(fanout, cells);
    const std::vector<double> weights = WeightsFor(NodesPerLevel(shape, bins));
    const double cost = DesignCost(shape, weights, bins);
    costs += (costs.empty() ? "" : ", ") + std::to_string(fanout) + ": " + FormatNumber(std::round(cost * 10) / 10);
    if (cost < best_cost) best_cost = cost, best = TreeDesign{shape, weights, ""};
  }
  best.reason = "fan-out " + std::to_string(best.shape.fanout) + " (height " + std::to_string(best.shape.height) +
                ") gives the declared consumers' bins the lowest variance among fan-outs 2, 4, 8 and 16 (relative "
                "variance " + costs + "); half of the respondents report a level in proportion to the square root of "
                "the nodes those bins use there, half evenly, so that bins asked for after collection are served too";
  return best;
}

}  // namespace deniable
