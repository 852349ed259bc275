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
// How far the sharing can be off. A cut cell of width w holding c of the
// answers, of which the bin takes the part of length s w centred at t (mid:
// the cell's centre), gets s c. If the answers' density is linear inside the
// cell, d(x) = c / w + g (x - mid), the part holds s c + g s w (t - mid), so
// the sharing is off by |g| s w |t - mid| (for a part at the cell's end,
// |g| w^2 s (1 - s) / 2). Two limits on |g|: the density is >= 0 at both ends
// of the cell, |g| <= 2 c / w^2, which alone gives c s (1 - s) at an end; and
// the slope inside a smoothly varying density is no steeper than the steeper
// of the slopes from the cell to its neighbours (between centres; the
// density's derivative is monotone over the three cells). bias_bound is
// the smaller of the two, summed over the cut cells, with c and the
// neighbours' densities from the consistent (non-negative) cells. It assumes
// answers spread smoothly at the scale of a fine cell; answers stacked at a
// few exact values (whole numbers with an edge between them) can be off by up
// to worst_case_bias = sum of max(s, 1 - s) c, which the interval allows for.
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
