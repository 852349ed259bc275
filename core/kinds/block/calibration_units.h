// The groups an estimate for a set of attributes reads, as calibration
// units, and the q's each unit is debiased with.
//
// Every (S, m) group of the set (block_aggregate.h) has its own average q
// (its respondents' budget is m * e, split by their private weights), so a
// group whose row sums pin that q down is its own unit, debiased with it:
// unbiased whatever the splits. The estimators divide by 1/2 - q, so a q
// estimated from a handful of row sums is not usable: 9 respondents of a
// binary attribute at e = 1 estimate q with a standard error of 0.2 against
// a 1/2 - q of 0.23, and the quotient reached 10^4 points (issue 26, 1). A
// group is its own unit only when it has kCalibrationMinGroup respondents
// and, for every attribute of the set, its q's standard error (from the
// row-sum variance 1/4 + (l - 1) q (1 - q) over s) is at most
// kMaxRelativeQError of 1/2 - q; the gap is then 5 standard errors from 0.
//
// The other groups are pooled into one unit (as before) that is also its
// own if its row sums are as precise. If not, it is "held": it borrows its
// q's (means and joint moments), for each of its groups those of the precise
// group of the nearest answered count m, a larger group of the same design
// (the same e, bounds and weights' distribution) whose q differs only
// through how m spreads the split. Under equal splits q = q(e) for every m:
// no bias. Under Dirichlet(1) splits q grows with m (SplitBudget, 10^5
// draws, bounds [0.25, 4]: at e = 1 0.281 at m = 2, 0.288 at m = 3, 0.297 at m = 8, 0.298
// at m = 9; at e = 2 0.162, 0.178, 0.195, 0.196), and a respondent debiased
// with a q off by delta is biased by delta / (1/2 - q) when not matching:
// at most (s - c) delta / (1/2 - q) for the unit, 0.002-0.05 of its s for a
// neighbouring m (0.13 for m = 1 borrowing from m = 2 at e = 2, where m = 1
// is q(e) exactly). Its counts are held to [0, s] (its true counts are within
// them, so this never increases an error) and its variance to at most s^2
// (the largest squared error left): a unit of s respondents moves no count
// by more than s, which is what s of n respondents can move a share. The
// holding adds a bias of at most a fraction of the unit's standard error at
// counts near 0 or s. With no precise group (a small survey) the held unit
// is everyone, its q's its own, and the holding keeps its shares in [0, 1].
#pragma once

#include <cstdint>
#include <vector>

#include "core/kinds/block/block_aggregate.h"

namespace deniable {

inline constexpr std::int64_t kCalibrationMinGroup = 50;
inline constexpr double kMaxRelativeQError = 0.2;

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

// A unit: its respondents' counts, the q's to debias them with, whether its
// counts are held to [0, s] and whether its q's are borrowed (above).
struct CalibrationUnit : BlockGroup {
  QMoments q;
  bool held = false;
  bool borrowed = false;  // held, and the pool holds others too (its q's are not estimated from its own reports alone)
};

std::vector<CalibrationUnit> CalibrationUnits(const BlockAggregate& aggregate, std::uint32_t set);

// All of the set's groups as one (the paper pools every respondent who answered the set).
BlockGroup PooledGroup(const BlockAggregate& aggregate, std::uint32_t set);

// The index of a co-occurrence cell: digits per member (its option, or its size for "any").
std::size_t CooccurrenceIndex(const std::vector<int>& sizes, const std::vector<int>& digits);

}  // namespace deniable
