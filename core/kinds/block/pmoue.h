// PMOUE (seed 002, Algorithm 1 as the digest rebuilds it): each answered
// attribute one-hot encoded and perturbed by OUE at its own share (p = 1/2,
// q_j = 1 / (e^{epsilon_j} + 1)), bits independent. The report is the set of
// answered attributes and their bit blocks; the shares are not in it.
//
// Wire form: {"attributes": [id, ...] (answered, in the block's order),
//             "bits": [[0|1, ...] per answered attribute, of its size]}.
#pragma once

#include <cstdint>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/common/random_source.h"
#include "core/common/result.h"
#include "core/frequency/categorical_mechanism.h"
#include "core/kinds/block/block_definition.h"

namespace deniable {

// One respondent's report: per attribute, its bits (empty when not answered).
struct BlockReport {
  std::vector<Support> bits;
  std::uint32_t answered_mask() const;
  int answered_count() const;
};

// OUE's q at a share: 1 / (e^epsilon + 1), 0 where exp overflows.
double OueQ(double epsilon);

// values: per attribute, the option index or -1 (not answered); shares: SplitBudget's.
BlockReport PerturbBlock(const BlockDefinition& block, const std::vector<int>& values,
                         const std::vector<double>& shares, RandomSource& random);

nlohmann::json BlockReportToJson(const BlockDefinition& block, const BlockReport& report);
// Strict: known ids in the block's order, at least one, each block of its attribute's size, bits 0 or 1.
Result<BlockReport> BlockReportFromJson(const BlockDefinition& block, const nlohmann::json& wire);

}  // namespace deniable
