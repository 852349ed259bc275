// Bins the analyst asks for after collection (any edges), from the fine
// cells' unbiased counts.
//
// A bin whose edges are fine-cell boundaries is a sum of fine cells: exact,
// with the variance of consumer_bins.h. Otherwise the fine cells cut by an
// edge are shared in proportion to their overlap (as if the answers were
// even within the cell): approximate, because the reports cannot say where
// in a cell an answer lies. Its interval is honest whatever the answers do
// inside the cut cells: from the 95% lower limit of the cells wholly inside
// the bin to the 95% upper limit of those cells together with the cut ones
// (each limit at 97.5%, so both hold together at least 95% of the time).
// The sampling part of std_error leaves out the covariance of the cut cells
// with the rest (zero for flat reports; small for a tree's).
//
// How far the sharing can be off (bias_bound). If the answers' density is
// smooth at the scale of a fine cell, a quadratic through a cut cell and its
// neighbours predicts the sharing's error, linearly in their shares
// (sharing_bias.h); the bound is that prediction over the bin's cut cells,
// plus the largest difference from it of the quadratics through the cells
// shifted by one (what a quadratic misses: a peak or an inflection at the
// cells' scale), plus 1.645 standard errors of the prediction (the cells'
// noise): a one-sided 95% limit. Never above worst_case_bias at the cut
// cells' 95% upper limits. Measured (tests/cpp/core/kinds/histogram/custom_bins_test.cpp,
// six shapes, n = 10^6): it held in 99.2-100% of cut bins, and its mean is
// at most about 2x the bin's 95th-percentile error (median 0.15-0.6x), where
// the worst case, max(s, 1 - s) c summed over the cut cells (s the share of
// the cell in the bin, c its consistent share), was up to 42x. The worst
// case holds whatever the answers do within the cut cells (answers stacked at
// a few exact values, e.g. whole numbers with an edge between them); the
// interval allows for it.
#pragma once

#include <vector>

#include "core/kinds/histogram/fine_partition.h"
#include "core/kinds/histogram/level_estimates.h"

namespace deniable {

struct CustomBin {
  double low_edge = 0.0;
  double high_edge = 0.0;
  double frequency = 0.0;   // unbiased when exact; the proportional share otherwise
  double std_error = 0.0;   // of the frequency (the sampling part)
  double ci_low = 0.0;      // 95% interval (see above)
  double ci_high = 0.0;
  double consistent_frequency = 0.0;  // from the fine cells' consistent frequencies, shared the same way
  double consistent_ci_low = 0.0;     // the interval clipped to [0, 1] and stretched to hold the consistent value
  double consistent_ci_high = 0.0;
  bool exact = true;
  double bias_bound = 0.0;        // 0 when exact; for answers smooth within a cell (above)
  double worst_case_bias = 0.0;   // 0 when exact; whatever the answers do within the cut cells
};

// edges strictly increasing inside the partition's range (validated by the options).
std::vector<CustomBin> EstimateCustomBins(const FinePartition& partition, const LevelEstimates& estimates,
                                          const std::vector<double>& edges);

}  // namespace deniable
