#include "core/kinds/block/calibration_units.h"

namespace deniable {
namespace {

void AddInto(BlockGroup& into, const BlockGroup& group) {
  if (into.cooccurrences.empty()) {
    into = group;
    return;
  }
  into.s += group.s;
  for (std::size_t i = 0; i < group.cooccurrences.size(); ++i) into.cooccurrences[i] += group.cooccurrences[i];
  for (std::size_t i = 0; i < group.row_sum_moments.size(); ++i) into.row_sum_moments[i] += group.row_sum_moments[i];
}

}  // namespace

std::vector<BlockGroup> CalibrationUnits(const BlockAggregate& aggregate, std::uint32_t set) {
  std::vector<BlockGroup> units;
  BlockGroup small;
  for (int m = 1; m <= static_cast<int>(aggregate.sizes().size()); ++m) {
    const BlockGroup* group = aggregate.Group(set, m);
    if (group == nullptr || group->s == 0) continue;
    if (group->s >= kCalibrationMinGroup) {
      units.push_back(*group);
    } else {
      AddInto(small, *group);
    }
  }
  if (small.s > 0) units.push_back(std::move(small));
  return units;
}

BlockGroup PooledGroup(const BlockAggregate& aggregate, std::uint32_t set) {
  BlockGroup pooled;
  for (int m = 1; m <= static_cast<int>(aggregate.sizes().size()); ++m) {
    if (const BlockGroup* group = aggregate.Group(set, m)) AddInto(pooled, *group);
  }
  return pooled;
}

std::size_t CooccurrenceIndex(const std::vector<int>& sizes, const std::vector<int>& digits) {
  std::size_t index = 0;
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    index = index * static_cast<std::size_t>(sizes[i] + 1) + static_cast<std::size_t>(digits[i]);
  }
  return index;
}

}  // namespace deniable
