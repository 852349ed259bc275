// The `tree` mechanism's fan-out and level weights, chosen from the declared
// consumers' bins (Cormode et al. leave both to the deployment).
//
// Per candidate fan-out B in {2, 4, 8, 16} (height h: the fewest levels with
// B^h >= cells): c_l, how many nodes of level l the declared bins decompose
// into; the variance of all of them together is proportional to
// sum_l c_l / w_l, w_l the share of respondents reporting level l. Half the
// respondents are spread in proportion to sqrt(c_l) (the allocation that
// minimises that sum) and half evenly over the levels, so that bins asked for
// after collection, which may need any level, are served too. The fan-out
// with the lowest sum wins (ties: the smaller).
#pragma once

#include <string>
#include <vector>

#include "core/kinds/histogram/hierarchy.h"

namespace deniable {

struct TreeDesign {
  TreeShape shape;
  std::vector<double> level_weights;  // per level 1..h, summing to 1
  std::string reason;
};

// bins: every declared consumer's bins as [first cell, end cell) pairs.
TreeDesign ChooseTreeDesign(int cells, const std::vector<std::pair<int, int>>& bins);

// The relative variance of the declared bins under a design: sum_l c_l / w_l.
double DesignCost(const TreeShape& shape, const std::vector<double>& weights,
                  const std::vector<std::pair<int, int>>& bins);

}  // namespace deniable
