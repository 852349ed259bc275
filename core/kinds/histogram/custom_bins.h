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
// bias_bound: the most the sharing can be off, the larger share of each cut
// cell times its consistent (non-negative) frequency, summed. The sampling
// part of std_error leaves out the covariance of the cut cells with the rest
// (zero for flat reports; small for a tree's).
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
  double consistent_frequency = 0.0;  // from the fine cells' Norm-Sub frequencies, shared the same way
  bool exact = true;
  double bias_bound = 0.0;  // 0 when exact
};

// edges strictly increasing inside the partition's range (validated by the options).
std::vector<CustomBin> EstimateCustomBins(const FinePartition& partition, const LevelEstimates& estimates,
                                          const std::vector<double>& edges);

}  // namespace deniable
