// The consistent joint of a set A of attributes by expectation-maximisation
// on the co-occurrence counts (the "EM on the pattern statistics" of the
// issue; LoPub-1's idea on sufficient statistics instead of records).
//
// In a calibration unit, the count X(w) of respondents whose bits for w_a
// are 1 on every attribute of A has mean
//   s * sum_x P(x) E[prod_a K_a(w_a, x_a)],  K_a(b, x) = 1/2 if b = x, q_a else,
// the expectation over the respondents' q's: a Kronecker product of the
// l_a x l_a kernels at the average q's, plus one Kronecker term per set V of
// two or more attributes weighted by the q's joint central moment mu_V
// (calibration_units.h; unequal splits make them non-zero). Treating the
// counts as Poisson,
// the Richardson-Lucy / EM update
//   P(x) <- P(x) * sum_units sum_w K(w, x) X(w) / lambda(w) / sum_units s prod_a (1/2 + (l_a - 1) q_a)
// keeps P a distribution and raises the pseudo-likelihood. It starts from
// the product of the shown marginals (independence). Its early rounds are
// a smoothing: with few reports per cell, running to the maximum fits the
// noise (a 9-attribute network at n = 10^5: triples' AVD 0.14 after 300
// rounds, 0.39 at the maximum), but the dependence moves in slowly (the
// kernel shrinks an interaction by prod (1/2 - q_a) against prod (1/2 +
// (l_a - 1) q_a)), so 300 rounds alone left strong dependence near
// independence (issue 26: a 75% share shown as 57%). With the unbiased cells
// as a target: 300 plain rounds, then, while the table is further from them
// than the truth is expected to be (sum_c (P_c - f_c)^2 / v_c above the
// number of cells, its mean at the truth), SQUAREM-accelerated rounds
// (Varadhan & Roland 2008, S3, kept only where the likelihood does not
// fall), up to max_rounds steps (bench/consistent_bench.cc). Each round
// applies K and K^T axis by axis: O(k prod l_a) per unit.
#pragma once

#include <cstdint>
#include <vector>

#include "core/kinds/block/block_aggregate.h"

namespace deniable {

inline constexpr int kMaxEmRounds = 300;
inline constexpr int kMaxAcceleratedEmRounds = 3000;

// The unbiased cells (frequencies) and their variances that EM is checked against.
struct EmTarget {
  std::vector<double> frequency, variance;
  double level = 1.0;  // stop at level x (the cells with a variance); 0: only at the likelihood's maximum
};

struct EmJoint {
  std::vector<double> table;  // sums to 1
  int rounds = 0;             // EM steps taken
  double discrepancy = 0.0;   // sum_c (table_c - f_c)^2 / v_c at the end (with a target)
  double target = 0.0;        // the cells with a variance: the discrepancy the truth has on average
};

// margins: the set's attributes' consistent marginals (the starting point's factors).
// Without a target: plain EM, at most max_rounds steps, until no cell moves by more than 1e-7.
// With one: SQUAREM-accelerated EM until the discrepancy falls to the target, the likelihood stops rising, or
// max_rounds steps.
EmJoint JointByEm(const BlockAggregate& aggregate, std::uint32_t set, const std::vector<std::vector<double>>& margins,
                  const EmTarget* target = nullptr, int max_rounds = kMaxEmRounds);

}  // namespace deniable
