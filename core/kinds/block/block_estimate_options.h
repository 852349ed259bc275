// A block's estimation options (query parameters, `<question id>.<name>` for one question):
//   mode         "calibrated" (default) | "paper" (block_marginals.h, lasso_joint.h);
//   crosstab     "id,id[,...]": 2 to 2 * joint_order attributes to cross-tabulate
//                (default: the block's first two), of at most kMaxCrossTabCells cells;
//   split_score  "formula" (default) | "prose": Situation 2's choice (cross_tab.h);
//   min_group    respondents needed behind a joint (default 30; 1 to 10^9);
//   interval     "population" (default) | "respondents": what the marginals' and
//                cross-tab cells' intervals are for (core/survey/interval_target.h).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/common/result.h"
#include "core/kinds/block/block_definition.h"
#include "core/kinds/block/cross_tab.h"
#include "core/survey/interval_target.h"

namespace deniable {

// A table no one reads cell by cell past this, and whose estimation (EM, a
// product of parts) would take seconds.
inline constexpr std::int64_t kMaxCrossTabCells = 65536;

struct BlockEstimateOptions {
  CrossTabOptions cross_tab;
  std::vector<std::string> crosstab;  // attribute ids; empty: the first two
};

std::vector<std::string> PublicBlockEstimateOptionNames();
// The options' form (names of other kinds' options are ignored).
Result<BlockEstimateOptions> ParseBlockEstimateOptions(const nlohmann::json& options);
// Against the block: the crosstab's ids exist, are distinct, and are not too many.
Result<std::uint32_t> CrossTabSet(const BlockDefinition& block, const BlockEstimateOptions& options);
Result<nlohmann::json> CanonicalBlockEstimateOptions(const nlohmann::json& options);

}  // namespace deniable
