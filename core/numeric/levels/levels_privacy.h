// The exact privacy of a whole LHP report <level, bit> (seed 003 digest §4.3).
//
// The paper's Theorem 2 bounds the level and the bit separately and claims
// graded LDP with r = max(eps_x, eps_x'); the pair leaks more, because a
// strict-level answer reported at a lenient level has its bit kept almost
// surely. The exact worst case for answers in levels t and t' is
//   max over reports (d, s) and answers v in t, v' in t' of
//   ln P(d, s | v) / P(d, s | v'),
// and since P(d, s | v) is linear in v within a level, the maximum is at the
// ends of the levels' intervals (their closures: half-open intervals approach
// their open end). That is what this computes, exactly.
#pragma once

#include <vector>

#include "core/numeric/levels/level_partition.h"
#include "core/numeric/levels/lhp_channel.h"

namespace deniable {

struct LevelsPrivacy {
  // pair[t][t']: the worst log ratio P(report | answer in t)/P(report | answer in t').
  std::vector<std::vector<double>> pair;
  // The LDP epsilon of the report: the largest entry (any two answers).
  double epsilon = 0.0;
  // The paper's claim for the pair: max(eps_t, eps_t') of the levels' epsilons.
  std::vector<std::vector<double>> claimed;
};

LevelsPrivacy ExactLevelsPrivacy(const LevelPartition& partition, const LhpChannel& channel);

}  // namespace deniable
