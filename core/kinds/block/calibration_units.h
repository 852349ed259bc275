// The groups an estimate for a set of attributes reads, as calibration
// units: every (S, m) group of the set (block_aggregate.h), each calibrated
// on its own (its own average q: its respondents' budget is m * e), except
// that groups of fewer than kCalibrationMinGroup respondents are pooled
// into one unit. A group of 3 estimates its average q from 3 row sums,
// and the estimators divide by 1/2 - q: small groups alone would make the
// estimate unstable, and their share of the data is small.
#pragma once

#include <cstdint>
#include <vector>

#include "core/kinds/block/block_aggregate.h"

namespace deniable {

inline constexpr std::int64_t kCalibrationMinGroup = 50;

std::vector<BlockGroup> CalibrationUnits(const BlockAggregate& aggregate, std::uint32_t set);

// All of the set's groups as one (the paper pools every respondent who answered the set).
BlockGroup PooledGroup(const BlockAggregate& aggregate, std::uint32_t set);

// A unit's respondents' q's for the k attributes of its set: the average
// q_a from the mean row sum (1/2 + (l_a - 1) qbar_a), and the joint central
// moments mu_U = E[prod_{a in U} (q_a - qbar_a)] (mu_{} = 1, mu_{a} = 0)
// from the row sums' mixed central moments over prod (l_a - 1): given the
// q's, an attribute's row sum is 1/2 + (l_a - 1) q_a plus noise independent
// across attributes. Unequal splits make the pairs' mu negative (a larger
// share for one attribute is a smaller one for another).
struct QMoments {
  std::vector<double> mean;  // qbar_a, in [0, 1/2)
  std::vector<double> mu;    // by subset of the set's members (bit i: member i)
};
QMoments UnitQMoments(const BlockGroup& unit, const std::vector<int>& sizes);

// The index of a co-occurrence cell: digits per member (its option, or its size for "any").
std::size_t CooccurrenceIndex(const std::vector<int>& sizes, const std::vector<int>& digits);

}  // namespace deniable
