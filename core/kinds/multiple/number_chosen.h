// The distribution of the number of options a respondent chose, estimated
// from a "choose all that apply" question's reports (multiple_results.h).
//
// Per-option bits: when every bit follows one law (p if chosen, q if not),
// the number of 1s a report has, R, depends on the set only through its size
// c: R ~ Binomial(c, p) + Binomial(k - c, q). So the counts h_r of reports
// with r ones (r = 0..k) are multinomial with probabilities T pi, T the
// (k+1) x (m+1) channel T[r][c] = P(R = r | c) and pi the sizes' distribution.
// The unbiased estimate is pi_hat = L h / n with L T's left inverse (its
// pseudo-inverse), covariance L (diag(lambda) - lambda lambda^T) L^T / n,
// lambda = h / n (the population's: a respondent is a draw from it; for these
// respondents that variance is an upper bound). T grows ill-conditioned fast
// with k and falls with epsilon: the intervals are then wide, as they must
// be; where T's condition number passes 1e10, double arithmetic no longer
// inverts it reliably and no estimate is given (the note says so).
//
// Padding and sampling: dummy d_j is in a padded set of size s <= l exactly
// when s <= l - j, so its estimated "share" is G(l - j) = P(s <= l - j), and
// P(s = t) = G(t) - G(t - 1) (G(-1) = 0, G(l) = 1 when m <= l): differences of
// two outputs of one multinomial, Var = (a(1-a) + b(1-b) + 2ab) / (n (p_eff - q)^2)
// with a, b those outputs' report shares. The two ends are single outputs'
// shares, P(0) = G(0) and P(l) = 1 - G(l - 1): their population intervals
// are the exact (Clopper-Pearson) intervals of those outputs' report shares,
// mapped (the normal ones cover too little with a few reports).
//
// The mean number chosen is the sum of the shares, with its variance from the
// same counts (bits: the sample variance of R over (p - q)^2; padding: the
// share of reports that name a real option, binomial).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/frequency/categorical_mechanism.h"
#include "core/survey/interval_target.h"

namespace deniable {

struct ChosenShare {
  int chosen;                // the number of options chosen
  double share, std_error, ci_low, ci_high;
  double consistent_share;   // Norm-Sub: non-negative, summing to 1
};

struct NumberChosen {
  double mean = 0.0, std_error = 0.0, ci_low = 0.0, ci_high = 0.0;
  std::vector<ChosenShare> distribution;  // empty: no estimate (note says why)
  std::string note;
};

// The channel T[r][c] of the bits (rows r = 0..k ones reported, columns c = 0..m chosen).
std::vector<std::vector<double>> OnesChannel(int options, int max_choices, SupportProbabilities pq);

// Bits: from the counts of reports by their number of ones (k + 1 counts summing to n).
NumberChosen NumberChosenFromOnes(const std::vector<std::int64_t>& reported_ones, int max_choices,
                                  SupportProbabilities pq, IntervalTarget target);

// Padding: from the counts per output value (k options then l dummies, summing to n), p_eff and q.
NumberChosen NumberChosenFromDummies(const std::vector<std::int64_t>& counts, int options, int padding,
                                     SupportProbabilities pq);

}  // namespace deniable
