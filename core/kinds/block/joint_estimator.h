// The joint distribution of a set A of k attributes from the respondents
// who answered all of them (Situation 1), using their bits' co-occurrences
// (digest section 3.9), which the paper's column counts throw away.
//
// Per calibration unit (calibration_units.h), with q_a the unit's average q
// of attribute a and Z_a = (y_a[w_a] - q_a) / (1/2 - q_a) for a cell w:
// E[Z_a] is 1 for a respondent whose answer is w_a and 0 otherwise, when
// every respondent has the same q_a. The product over A, summed over the
// unit (S_A(w), read off the co-occurrence counts by expanding the product),
// then estimates the cell's count. With unequal splits, a respondent's own
// q's deviate from the averages, and a respondent whose answers differ
// from w on a set U of attributes adds
//   kappa_U = E[prod_{a in U} (q_a - qbar_a)] / prod_{a in U} (1/2 - qbar_a)
// (zero for |U| <= 1, negative for pairs under simplex splits). The row sums
// give these moments exactly: given the q's, an attribute's number of 1
// bits is 1/2 + (l_a - 1) q_a plus noise independent across attributes, so
// the mixed central moments of the row sums are prod (l_a - 1) times those
// of the q's.
//
// Hence, with J_V(w) the count of respondents matching w on V (J_{} = s):
//   E[S_V(w)] = sum_{W within V} J_W(w) beta(W, V),
//   beta(W, V) = sum_{T within W} kappa_{V \ T} (-1)^{|W \ T|},
// and J_V is solved for from the smaller sets' J, from single attributes
// (where it is the calibrated marginal) up to A. For equal splits every
// kappa is 0 and J_A = S_A: the plain product estimator. Cost per unit:
// O(3^k prod l_a).
//
// Variance: of S_A / beta(A, A) with the kappas and q's taken as known,
// sum over respondents of prod E[Z_a^2] - prod E[Z_a]^2, grouped by the set
// of attributes on which they match w (counts from the J's by
// inclusion-exclusion, clipped at 0); E[Z_a^2] is (q^2 + (1-q)^2) / 2 / D^2
// on a match, q (1-q) / D^2 otherwise, D = 1/2 - q. Units add. A unit too
// small to calibrate itself uses borrowed q's and moments, and its cells are
// held to [0, s] and their variances to s^2 (calibration_units.h).
#pragma once

#include <cstdint>
#include <vector>

#include "core/kinds/block/block_aggregate.h"
#include "core/survey/interval_target.h"

namespace deniable {

// A joint table over attributes (in the block's order), cells in mixed
// radix with the first attribute most significant.
struct JointCounts {
  std::vector<int> attributes;
  std::vector<int> sizes;
  std::int64_t n = 0;            // respondents it was estimated from
  std::vector<double> count;     // unbiased (may be negative)
  std::vector<double> variance;  // of count; empty when no interval is honest
};

// set: the attributes (a stored set: at most joint_order of them). target:
// the respondents' variance above, or for the population that plus the
// sampling variance n pi (1 - pi) of each cell (block_marginals.h).
JointCounts EstimateJoint(const BlockAggregate& aggregate, std::uint32_t set,
                          IntervalTarget target = IntervalTarget::kPopulation);

}  // namespace deniable
