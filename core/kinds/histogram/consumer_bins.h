// A data consumer's histogram from the fine cells' unbiased counts (seed 000's
// CHP, digest section 3.5): each bin the sum of the fine cells it covers.
//
// The paper says summing cells keeps the variance; it does not (digest 6.1).
// With unary encodings (SUE, OUE) every bit is perturbed independently given
// the answer, so the cells' counts are uncorrelated and a bin of m cells with
// n_b of the n answers has
//     Var = (n_b p(1-p) + (m n - n_b) q(1-q)) / (p - q)^2,
// which for SUE (p(1-p) = q(1-q)) is m n q(1-q)/(p-q)^2 = m N sigma^2(eps):
// m times a cell's. The reported variance plugs in the estimate of n_b
// clipped to [0, n]; the 95% interval is the estimate +- 1.96 sd (normal
// approximation). Not for GRR, whose cells are negatively correlated.
#pragma once

#include <vector>

#include "core/frequency/categorical_mechanism.h"
#include "core/frequency/frequency_estimator.h"

namespace deniable {

struct BinEstimate {
  int first_cell = 0;  // the bin's fine cells are [first_cell, end_cell)
  int end_cell = 0;
  double count = 0.0;  // unbiased estimate of the answers in the bin (may be negative)
  double frequency = 0.0;
  double std_error = 0.0;  // of the frequency
  double ci_low = 0.0;     // 95% interval of the frequency
  double ci_high = 0.0;
};

// The exact variance of a bin's count estimate: `cells` fine cells holding `bin_count` of the n answers.
double BinCountVariance(SupportProbabilities pq, double bin_count, int cells, double n);

// bin_starts: the first fine cell of each bin and one past the last (FinePartition::BinStarts).
std::vector<BinEstimate> EstimateBins(const FrequencyEstimate& cells, const std::vector<int>& bin_starts,
                                      SupportProbabilities pq);

}  // namespace deniable
