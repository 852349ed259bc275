#include "core/kinds/numeric/empty_tails.h"

#include <algorithm>
#include <cstddef>
#include <numeric>

namespace deniable {
namespace {

// Mass in cells [begin, end).
double MassIn(const std::vector<double>& probabilities, std::size_t begin, std::size_t end) {
  return std::accumulate(probabilities.begin() + static_cast<std::ptrdiff_t>(begin),
                         probabilities.begin() + static_cast<std::ptrdiff_t>(end), 0.0);
}

// The fitted distribution with cells [begin, end) emptied, renormalised.
GridDistribution Emptied(const GridDistribution& fitted, std::size_t begin, std::size_t end) {
  GridDistribution world = fitted;
  std::fill(world.probabilities.begin() + static_cast<std::ptrdiff_t>(begin),
            world.probabilities.begin() + static_cast<std::ptrdiff_t>(end), 0.0);
  const double kept = MassIn(world.probabilities, 0, world.probabilities.size());
  for (double& p : world.probabilities) p /= kept;
  return world;
}

// The most mass any fit to reports drawn from the fit with [begin, end)
// emptied puts in [begin, end); a failed bootstrap invents everything (the
// band then reaches the bound: the honest default).
Result<double> InventedMass(const GridDistribution& fitted, std::size_t begin, std::size_t end,
                            const TransitionMatrix& transition, std::int64_t reports, int values_per_report,
                            const Reestimator& reestimate, BootstrapOptions options) {
  if (MassIn(fitted.probabilities, begin, end) >= 1.0) return 0.0;  // emptying it leaves no world
  const GridDistribution world = Emptied(fitted, begin, end);
  options.world = world;
  options.replicates = kEmptyTailReplicates;
  auto sample = ParametricBootstrap(world, transition, reports, values_per_report, reestimate, options);
  if (!sample) {
    if (sample.error_code() == ErrorCode::kCancelled) return sample.failure();
    return 1.0;
  }
  if (sample->failures > 0) return 1.0;
  double most = 0.0;
  for (const GridDistribution& replicate : sample->replicates) {
    most = std::max(most, MassIn(replicate.probabilities, begin, end));
  }
  return most;
}

// The first cell with at most `mass` of the fit from it on (the upper tail's split).
std::size_t UpperSplit(const std::vector<double>& probabilities, double mass) {
  std::size_t split = probabilities.size();
  double above = 0.0;
  while (split > 0 && above + probabilities[split - 1] <= mass) above += probabilities[--split];
  return split;
}

// One past the last cell with at most `mass` of the fit up to it (the lower tail's split).
std::size_t LowerSplit(const std::vector<double>& probabilities, double mass) {
  std::size_t split = 0;
  double below = 0.0;
  while (split < probabilities.size() && below + probabilities[split] <= mass) below += probabilities[split++];
  return split;
}

}  // namespace

Result<EmptyTails> TestEmptyTails(const GridDistribution& fitted, const TransitionMatrix& transition,
                                  std::int64_t reports, int values_per_report, const Reestimator& reestimate,
                                  const BootstrapOptions& options) {
  const std::size_t cells = fitted.probabilities.size();
  const double width = fitted.range.width() / static_cast<double>(cells);
  const auto value_at = [&](std::size_t split) { return fitted.range.low + static_cast<double>(split) * width; };
  EmptyTails tails;
  BootstrapOptions tail_options = options;
  if (const std::size_t split = UpperSplit(fitted.probabilities, kEmptiedTailMass); split < cells) {
    ++tail_options.seed;  // draws of their own
    DENIABLE_ASSIGN_OR_RETURN(auto invented,
                              InventedMass(fitted, split, cells, transition, reports, values_per_report, reestimate, tail_options));
    tails.above = InventedTail{value_at(split), invented};
  }
  if (const std::size_t split = LowerSplit(fitted.probabilities, kEmptiedTailMass); split > 0) {
    ++tail_options.seed;
    DENIABLE_ASSIGN_OR_RETURN(auto invented,
                              InventedMass(fitted, 0, split, transition, reports, values_per_report, reestimate, tail_options));
    tails.below = InventedTail{value_at(split), invented};
  }
  return tails;
}

BootstrapBand WidenCdfBandForEmptyTails(const std::vector<double>& points, const BootstrapBand& band,
                                        const std::vector<double>& cdf, const EmptyTails& tails) {
  BootstrapBand widened = band;
  for (std::size_t k = 0; k < points.size(); ++k) {
    if (tails.above && points[k] >= tails.above->split) {
      widened.high[k] = std::max(widened.high[k], std::min(1.0, cdf[k] + tails.above->invented));
    }
    if (tails.below && points[k] < tails.below->split) {
      widened.low[k] = std::min(widened.low[k], std::max(0.0, cdf[k] - tails.below->invented));
    }
  }
  return widened;
}

}  // namespace deniable
