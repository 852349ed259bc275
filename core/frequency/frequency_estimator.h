// Server-side frequency estimation for every categorical mechanism.
//
// With C_i = number of reports supporting option i among n, and (p, q) from
// the mechanism, E[C_i] = n_i p + (n - n_i) q, so
//     n_i_hat = (C_i - n q) / (p - q)                      (unbiased)
//     Var(n_i_hat) = (n_i p(1-p) + (n - n_i) q(1-q)) / (p - q)^2   (exact:
// C_i is a sum of independent Bernoullis). The reported variance plugs in
// n_i_hat clipped to [0, n]; 95% intervals are n_i_hat +- 1.96 sd (normal
// approximation, coverage tested against simulation). Cost: O(k), whatever n.
#pragma once

#include <cstdint>
#include <vector>

#include "core/frequency/categorical_mechanism.h"

namespace deniable {

inline constexpr double kZ95 = 1.959963984540054;

struct OptionEstimate {
  double count;                 // unbiased estimate of n_i (may be negative)
  double frequency;             // count / n
  double std_error;             // of frequency
  double ci_low;                // 95% interval for frequency
  double ci_high;
  double consistent_frequency;  // Norm-Sub: non-negative, sums to 1
};

struct FrequencyEstimate {
  std::int64_t n = 0;
  std::vector<OptionEstimate> options;
};

FrequencyEstimate EstimateFrequencies(const std::vector<std::int64_t>& support_counts, std::int64_t n,
                                      SupportProbabilities pq);

// Variance of one frequency estimate when the option's true frequency is f.
double FrequencyVariance(SupportProbabilities pq, double f, double n);

// The variance used to compare mechanisms and plan sample sizes: that of an
// option with small frequency (f -> 0), the convention of Wang et al. 2017
// (their Var*); it gives the rule "GRR beats OUE when k < 3e^eps + 2" exactly.
double PlanningFrequencyVariance(SupportProbabilities pq, double n);

// Smallest n for which the planning 95% half-width is <= half_width.
std::int64_t RequiredSampleSize(SupportProbabilities pq, double half_width);

}  // namespace deniable
