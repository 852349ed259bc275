// A block's simulated truth (`deniable simulate`):
//   {"weights": [w, ...]}  the joint distribution over every attribute's
//                           options (prod l_a cells, first attribute most
//                           significant; at most 2^20 cells), or
//   {"rows": [[option index per attribute], ...]}  respondents resampled;
//   "attribute_skip": {"<id>": rate in [0, 1)}  each attribute skipped
//                           independently (a respondent who would skip all
//                           answers the least skipped one);
//   "split": {"dirichlet": alpha} (weights ~ Gamma(alpha), a Dirichlet split
//            before the share bounds) or
//            {"sensitivity": {"<id>": [P(more private), P(usual), P(less private)]}}
//            (default: everyone usual, an equal split).
// The comparison: per attribute, the answered respondents' distribution
// against the estimate (total variation "avd", of the consistent estimate
// too); the cross-tab's cells against the drawn respondents' joint of those
// attributes. Interval coverage is of the truth the intervals are for
// (results' "interval_for"; "coverage_of" says which): the population's
// shares (the weights, or the rows' distribution) or the respondents' own.
#pragma once

#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "core/common/result.h"
#include "core/kinds/block/block_definition.h"
#include "core/survey/question_kind.h"

namespace deniable {

Result<std::unique_ptr<TruthSampler>> ParseBlockTruth(const BlockDefinition& block, const nlohmann::json& entry,
                                                      const std::string& where);

// A truth from a CSV file's rows (the CLI reads the file; `table` has the
// header first): {"csv": FILE, "columns": {"<attribute id>": "<header>"}}
// (default: the column named as the attribute), every data row's cells
// option labels; the rest of the entry (attribute_skip, split, skip_rate)
// kept. Returns the entry with "rows" of option indices instead of "csv".
Result<nlohmann::json> BlockTruthFromTable(const BlockDefinition& block, const std::vector<std::vector<std::string>>& table,
                                           const nlohmann::json& entry, const std::string& where);

// `deniable simulate`'s text for a block's compared result.
std::string BlockSimulationText(const nlohmann::json& result);

// A Gamma(alpha, 1) draw (Marsaglia and Tsang; alpha < 1 boosted by U^(1/alpha)).
double GammaDraw(double alpha, RandomSource& random);

}  // namespace deniable
