// Comparing a reconstructed distribution with the sample it was estimated
// from: what `deniable simulate` reports as a numeric question's errors.
#pragma once

#include <vector>

#include "core/distribution/distribution_summary.h"

namespace deniable {

// Summary of a sample (the simulated respondents' true answers).
// Population moments (divide by n, as Summarize does for the reconstruction);
// quantiles by linear interpolation between order statistics (Hyndman-Fan
// type 7: Q(p) = x_(h) + (h - floor h)(x_(h+1) - x_(h)), h = 1 + (n - 1) p).
struct SampleSummary {
  double mean;
  double standard_deviation;
  double median;
  double lower_quartile;
  double upper_quartile;
};

// `sorted` must be non-empty and ascending.
SampleSummary SummarizeSample(const std::vector<double>& sorted);

// The 1-Wasserstein distance, in the answer's units, between the grid
// distribution (piecewise-uniform density, so a piecewise-linear CDF F) and
// the empirical distribution of `sorted` (step CDF G):
//   W1 = integral over [a, b] of |F(x) - G(x)| dx,
// computed exactly: on every interval between consecutive cell edges and
// sample values F is linear and G constant. Samples must lie in [a, b],
// ascending; O(m + n).
double Wasserstein1ToSample(const GridDistribution& distribution, const std::vector<double>& sorted);

}  // namespace deniable
