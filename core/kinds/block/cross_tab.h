// A cross-tabulation of k attributes of a block: the paper's two situations
// (seed 002, digest sections 3.7-3.8).
//
// Situation 1, preferred whenever it is feasible (k <= joint_order and at
// least min_group respondents answered all k): the joint from those
// respondents, by the default estimator (joint_estimator.h: unbiased, with
// 95% intervals, and a consistent version fitted to the shown marginals) or
// in `paper` mode by the LASSO (lasso_joint.h: no interval).
//
// Situation 2 otherwise (Algorithm 2): for r = 1 .. floor(k/2), every split
// of the k into a part of k - r and a part of r, each a feasible Situation 1;
// the first r with a feasible split is used; among its splits, the one with
// the smallest sum of the parts' entropies (split_score "formula", the
// printed formula's sign and the right one: the full joint's entropy is the
// same for every split, so the sum is smallest where the parts share least
// information) or the largest ("prose", as the paper's text says). The
// result is the product of the parts' consistent joints: it assumes the
// parts independent, so no interval is honest and none is given. No feasible
// split: an error naming what is missing.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/common/result.h"
#include "core/kinds/block/block_aggregate.h"
#include "core/kinds/block/block_definition.h"
#include "core/kinds/block/block_marginals.h"
#include "core/survey/interval_target.h"

namespace deniable {

enum class SplitScore { kFormula, kProse };

struct CrossTabOptions {
  BlockMode mode = BlockMode::kCalibrated;
  SplitScore split_score = SplitScore::kFormula;
  std::int64_t min_group = 30;
  IntervalTarget interval = IntervalTarget::kPopulation;  // what Situation 1's intervals are for
};

struct CrossTab {
  std::vector<int> attributes;
  std::vector<int> sizes;
  int situation = 1;
  std::vector<std::vector<int>> parts;  // Situation 2's two parts
  std::int64_t n = 0;                   // respondents behind it (Situation 2: the smaller part's)
  // Unbiased frequencies with SEs (Situation 1, default mode), else empty.
  std::vector<double> frequency, std_error;
  std::vector<double> consistent;       // non-negative, sums to 1, margins = the shown marginals
  std::string note;
};

// margins: per attribute of the block, its consistent marginal (as shown).
Result<CrossTab> EstimateCrossTab(const BlockAggregate& aggregate, const BlockDefinition& block, std::uint32_t set,
                                  const CrossTabOptions& options, const std::vector<std::vector<double>>& margins);

}  // namespace deniable
