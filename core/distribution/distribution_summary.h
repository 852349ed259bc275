// What an analyst reads from a reconstructed distribution.
//
// A reconstruction (EMS, KDE + SQP) is a GridDistribution: probabilities of m
// equal cells over the input range [a, b], read as a density that is constant
// within each cell. Everything below is exact for that density:
//   - its CDF is piecewise linear, so quantiles (median, quartiles) are
//     interpolated linearly within a cell; Quantile(p) = inf{x : F(x) >= p};
//   - density on any number of points (the analyst picks m <= 1000 after
//     collection, independently of the estimation grid): the mass of each of
//     m equal display cells divided by its width, at the cell centres
//     (re-binning, so the display conserves mass exactly);
//   - a histogram for any bin width: bins [a + k w, a + (k+1) w), the last one
//     cut at b;
//   - moments of the piecewise-uniform mixture: for a cell with centre c,
//     half-width h and mass p, with d = c - mean, the central moments add
//     p (d^2 + h^2/3), p (d^3 + d h^2), p (d^4 + 2 d^2 h^2 + h^4/5).
//     Skewness = mu3 / sd^3; kurtosis = mu4 / sd^4 (NOT excess: 3 for a
//     normal, 1.8 for a uniform; as MATLAB's kurtosis, digest P22). These are
//     population moments of the reconstructed distribution.
#pragma once

#include <vector>

#include "core/numeric/numeric_mechanism.h"
#include "core/common/result.h"

namespace deniable {

inline constexpr int kMaxDensityPoints = 1000;
inline constexpr int kMaxHistogramBins = 100000;

struct GridDistribution {
  NumericRange range;                 // [a, b]
  std::vector<double> probabilities;  // m equal cells: non-negative, summing to 1
};

// Finite range with low < high, at least one cell, probabilities finite and
// non-negative with a sum within 1e-6 of 1.
Status ValidateGridDistribution(const GridDistribution& distribution);
// The same distribution from cell masses that may carry round-off: negatives
// (> -1e-12) set to 0, then normalised to sum 1.
Result<GridDistribution> MakeGridDistribution(NumericRange range, std::vector<double> probabilities);

struct SummaryStatistics {
  double mean;
  double standard_deviation;
  double median;
  double lower_quartile;  // 25%
  double upper_quartile;  // 75%
  double skewness;
  double kurtosis;  // not excess
};

// The distribution must be valid (ValidateGridDistribution).
SummaryStatistics Summarize(const GridDistribution& distribution);
double Cdf(const GridDistribution& distribution, double x);
double Quantile(const GridDistribution& distribution, double p);  // p clamped to [0, 1]

struct DensityCurve {
  std::vector<double> points;   // centres of the display cells
  std::vector<double> density;  // per unit of the answer's scale
  std::vector<double> cdf;      // F at the same points
};
// points in 1..kMaxDensityPoints.
Result<DensityCurve> DensityOnPoints(const GridDistribution& distribution, int points);

struct BinnedHistogram {
  std::vector<double> edges;          // bins + 1 edges, from a to b
  std::vector<double> probabilities;  // mass per bin
};
// bin_width > 0, with at most kMaxHistogramBins bins.
Result<BinnedHistogram> HistogramWithBinWidth(const GridDistribution& distribution, double bin_width);

}  // namespace deniable
