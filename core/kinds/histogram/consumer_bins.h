// The variance of a bin of fine cells (seed 000's CHP, digest section 3.5):
// each bin the sum of the fine cells it covers (level_estimates.h sums them).
//
// The paper says summing cells keeps the variance; it does not (digest §6.5).
// With unary encodings (SUE, OUE) every bit is perturbed independently given
// the answer, so the cells' counts are uncorrelated and a bin of m cells with
// n_b of the n answers has
//     Var = (n_b p(1-p) + (m n - n_b) q(1-q)) / (p - q)^2,
// which for SUE (p(1-p) = q(1-q)) is m n q(1-q)/(p-q)^2 = m N sigma^2(eps):
// m times a cell's. The reported variance plugs in the estimate of n_b
// clipped to [0, n]. Not for GRR, whose cells are negatively correlated.
#pragma once

#include "core/frequency/categorical_mechanism.h"

namespace deniable {

// The exact variance of a bin's count estimate: `cells` fine cells holding `bin_count` of the n answers.
double BinCountVariance(SupportProbabilities pq, double bin_count, int cells, double n);

}  // namespace deniable
