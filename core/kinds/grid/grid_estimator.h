// One grid row's estimates from its reports: the distribution over the scale's
// levels and the mean position (levels numbered 1..L), by inverting the row's
// channel (grid_mechanism.h), whatever the mechanism.
//
// With M[i][j] = P(report j | answer i) (invertible for both mechanisms), a
// report j's unbiased score for a function a of the answer is s(j) =
// (M^-1 a)(j): E[s(report) | answer i] = (M s)(i) = a(i). Averaging the
// scores of the n reports is the unbiased inversion f_hat = M^-T (c / n)
// (c the reported levels' counts) read through a linear functional:
//   level k's frequency: a = e_k (the indicator of level k);
//   the mean position:   a(i) = i + 1.
// For GRR this is frequency_estimator.h's (C_k - n q) / (n (p - q)) exactly.
//
// Variances (interval_target.h), lambda the reports' shares that the
// consistent distribution f implies (lambda = M^T f: the empirical c / n
// whenever the unbiased estimate is a distribution, as frequency_estimator.h
// plugs in f_hat clipped to [0, 1]):
// - the population (default): the reports are i.i.d. draws from lambda, so
//     Var = (sum_j lambda_j s(j)^2 - (sum_j lambda_j s(j))^2) / n,
//   the reports' scores' variance over n: sampling and randomisation together;
// - these respondents (their answers fixed): only the randomisation,
//     Var = sum_i f_i Var(s(report) | i) / n,
//   with the same f plugged in (never negative).
// 95% intervals: estimate +- 1.96 sd (normal approximation; coverage tested
// against simulation, tests/cpp/core/kinds/grid/). The unbiased estimates may
// leave [0, 1] or [1, L]; the consistent ones (Norm-Sub's distribution and its
// mean) do not, and their intervals are the unbiased ones clipped to the range
// and stretched to hold them (as categorical_results.cc does).
// Duchi's L x 2 channel gives the mean position only (no levels): its variance
// is the population's for both targets, an upper bound for these respondents'
// (they differ by Var(position) / n, which the reports cannot estimate).
#pragma once

#include <cstdint>
#include <vector>

#include "core/kinds/grid/grid_mechanism.h"
#include "core/survey/interval_target.h"

namespace deniable {

struct LinearEstimate {
  double estimate = 0.0;
  double std_error = 0.0;
  double ci_low = 0.0;
  double ci_high = 0.0;
  double consistent = 0.0;  // from the consistent distribution
  double consistent_ci_low = 0.0;
  double consistent_ci_high = 0.0;
};

struct RowEstimate {
  std::int64_t n = 0;
  std::vector<LinearEstimate> levels;  // frequencies (empty when the channel gives none: duchi)
  LinearEstimate mean;                 // mean position, 1..L
};

// `counts`: per level, the reports of that level (they sum to n). With n = 0
// every number is NaN.
RowEstimate EstimateRow(const ChannelMatrix& channel, const std::vector<std::int64_t>& counts,
                        IntervalTarget target = IntervalTarget::kPopulation);

// The scores s = M^-1 a of the functional a (one value per answer level).
std::vector<double> UnbiasedScores(const ChannelMatrix& channel, const std::vector<double>& functional);

// The variance of the mean position's estimate from n reports when the answers'
// distribution is f (the formula the tests check by simulation and the advisor
// and the benchmark use): for the population, Var(s(report)) / n with the
// report drawn from f through the channel; for these respondents,
// sum_i f_i Var(s(report) | i) / n.
double MeanPositionVariance(const ChannelMatrix& channel, const std::vector<double>& f, double n,
                            IntervalTarget target = IntervalTarget::kPopulation);

// The same for level k's share (0-based k; the functional e_k, read through
// the channel's inverse as EstimateRow reads it): what the advisor plans a
// distribution's precision with. The channel must be square (grr, ordinal);
// for grr it is frequency_estimator.h's PopulationFrequencyVariance (or
// FrequencyVariance, for these respondents) at f_k.
double LevelShareVariance(const ChannelMatrix& channel, const std::vector<double>& f, int level, double n,
                          IntervalTarget target = IntervalTarget::kPopulation);

}  // namespace deniable
