// Server-side frequency estimation for every categorical mechanism.
//
// With C_i = number of reports supporting option i among n, and (p, q) from
// the mechanism, E[C_i] = n_i p + (n - n_i) q, so
//     n_i_hat = (C_i - n q) / (p - q)                      (unbiased)
// Two variances, one per interval target (core/survey/interval_target.h):
// - these respondents (n_i fixed): C_i is a sum of independent Bernoullis,
//     Var(n_i_hat) = (n_i p(1-p) + (n - n_i) q(1-q)) / (p - q)^2;
// - the population (the default): each respondent is a draw from it, so
//   whether a report supports i is Bernoulli(lambda), lambda = pi_i p +
//   (1 - pi_i) q, independently per respondent, whatever the mechanism (GRR,
//   OUE/SUE, the negative survey: all that matters is P(i supported | i) = p
//   and P(i supported | not i) = q). C_i is Binomial(n, lambda), and
//     Var(f_i_hat) = lambda (1 - lambda) / (n (p - q)^2)    (Warner 1965),
//   which is the respondents' variance plus the sampling's f(1 - f)/n (the
//   law of total variance: Var E[support | answer] = f(1 - f)(p - q)^2).
// The reported variances plug in f_hat clipped to [0, 1] (so lambda = C_i/n
// whenever f_hat is a frequency); 95% intervals are f_hat +- 1.96 sd (normal
// approximation, coverage tested against simulation). Cost: O(k), whatever n.
#pragma once

#include <cstdint>
#include <vector>

#include "core/frequency/categorical_mechanism.h"
#include "core/survey/interval_target.h"

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

// Intervals for `target` (the population unless asked otherwise).
FrequencyEstimate EstimateFrequencies(const std::vector<std::int64_t>& support_counts, std::int64_t n,
                                      SupportProbabilities pq,
                                      IntervalTarget target = IntervalTarget::kPopulation);

// Variance of one frequency estimate when the respondents' own frequency of
// the option is f (these respondents: the randomisation alone).
double FrequencyVariance(SupportProbabilities pq, double f, double n);

// Variance of one frequency estimate when the population's frequency of the
// option is f (sampling and randomisation): lambda (1 - lambda) / (n (p - q)^2),
// lambda = q + f (p - q). Equals FrequencyVariance + f (1 - f) / n.
double PopulationFrequencyVariance(SupportProbabilities pq, double f, double n);

// The variance used to compare mechanisms and plan sample sizes: the
// population variance of an option with small frequency (f -> 0), the
// convention of Wang et al. 2017 (their Var*); it gives the rule "GRR beats
// OUE when k < 3e^eps + 2" exactly. At f = 0 the sampling adds nothing
// (f (1 - f) = 0), so the two targets agree there; options of larger f have
// wider population intervals (up to 1/(4 n (p - q)^2) at lambda = 1/2).
double PlanningFrequencyVariance(SupportProbabilities pq, double n);

// Smallest n for which the planning 95% half-width is <= half_width.
std::int64_t RequiredSampleSize(SupportProbabilities pq, double half_width);

}  // namespace deniable
