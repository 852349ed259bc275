// A block of categorical attributes answered together under personalised
// budgets (seed 002, PLDP / PMOUE; README "Blocks"): what the survey author
// declares, validated.
//
// Definition fields (beside id, text, type "block", required):
//   "attributes": [{"id", "text", "options": [label, ...]}, ...]
//       2 to kMaxAttributes attributes of 2 to kMaxAttributeOptions options;
//   "mechanism": {"name": "pmoue", "epsilon_per_attribute": e,
//                 "share_bounds": [low, high]}
//       each answered attribute gets a share of m * e (m answered) between
//       low * e and high * e (default [0.25, 4], narrowed to keep every
//       share in [0.01, 30]; low <= 1 <= high, so the equal split always
//       fits);
//   "joint_order": K (optional): the largest set of attributes whose joint
//       distribution is estimated directly (cross-tabulations of more are
//       products of parts). Default: 3, or less when the aggregate for 3
//       would exceed kMaxAggregateCells.
//
// The aggregate keeps, per set S of at most K attributes and per number m of
// attributes a respondent answered, a table of (l_a + 1) cells per
// attribute of S (block_aggregate.h); its size, summed over every (S, m),
// is AggregateCells and must stay within kMaxAggregateCells (8 bytes each).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/common/result.h"

namespace deniable {

inline constexpr std::size_t kMaxAttributes = 12;
inline constexpr std::size_t kMaxAttributeOptions = 64;
inline constexpr int kMaxJointOrder = 5;
inline constexpr std::int64_t kMaxAggregateCells = std::int64_t{1} << 21;  // 16 MiB of counts

struct BlockAttribute {
  std::string id;
  std::string text;
  std::vector<std::string> options;
  int size() const { return static_cast<int>(options.size()); }
};

// A share's bounds in units of epsilon_per_attribute.
struct ShareBounds {
  double low = 0.25;
  double high = 4.0;
};

struct BlockDefinition {
  std::vector<BlockAttribute> attributes;
  double epsilon_per_attribute = 1.0;
  ShareBounds bounds;
  int joint_order = 3;

  int attribute_count() const { return static_cast<int>(attributes.size()); }
  std::vector<int> sizes() const;
  // The index of the attribute with this id, or -1.
  int IndexOf(const std::string& id) const;
};

// The aggregate's cells for these sizes and order (above).
std::int64_t AggregateCells(const std::vector<int>& sizes, int joint_order);

// Parses the block fields of a question object; errors name where + field.
Result<BlockDefinition> ParseBlockDefinition(const nlohmann::json& question, const std::string& where);

// "attributes", "mechanism" and "joint_order" as ParseBlockDefinition reads them.
nlohmann::json BlockAttributesToJson(const BlockDefinition& block);
nlohmann::json BlockMechanismToJson(const BlockDefinition& block);

}  // namespace deniable
