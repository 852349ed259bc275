#include "core/kinds/histogram/custom_bins.h"

#include <algorithm>
#include <cmath>

#include "core/frequency/frequency_estimator.h"

namespace deniable {
namespace {

// How much of fine cell i lies in [low, high): 1 inside, 0 outside, between for a cut cell. An edge within
// round-off of a cell boundary is that boundary, so bins on the fine grid come out exact.
double OverlapShare(const FinePartition& partition, int i, double low, double high) {
  const double begin = partition.BoundaryValue(i), end = partition.BoundaryValue(i + 1);
  const double tolerance = 1e-9 * (end - begin);
  const double from = std::abs(low - begin) <= tolerance ? begin : std::max(begin, low);
  const double to = std::abs(high - end) <= tolerance ? end : std::min(end, high);
  return std::clamp((to - from) / (end - begin), 0.0, 1.0);
}

CustomBin EstimateBin(const FinePartition& partition, const LevelEstimates& estimates, double low, double high) {
  CustomBin bin;
  bin.low_edge = low;
  bin.high_edge = high;
  int inner_first = -1, inner_end = -1, outer_first = -1, outer_end = -1;
  double cut_shared = 0.0, cut_variance = 0.0;
  const int last = high >= partition.range().high ? partition.cells() - 1 : partition.CellOf(high);
  for (int i = partition.CellOf(low); i <= last; ++i) {
    const double share = OverlapShare(partition, i, low, high);
    if (share <= 0.0) continue;
    bin.consistent_frequency += share * estimates.consistent_cells()[static_cast<std::size_t>(i)];
    if (outer_first < 0) outer_first = i;
    outer_end = i + 1;
    if (share >= 1.0) {
      if (inner_first < 0) inner_first = i;
      inner_end = i + 1;
      continue;
    }
    bin.exact = false;
    const RangeEstimate cell = estimates.Range(i, i + 1);
    cut_shared += share * cell.frequency;
    cut_variance += share * share * cell.variance;
    bin.bias_bound += std::max(share, 1.0 - share) * std::max(0.0, estimates.consistent_cells()[static_cast<std::size_t>(i)]);
  }
  if (estimates.n() == 0 || outer_first < 0) return bin;
  const RangeEstimate inner = inner_first >= 0 ? estimates.Range(inner_first, inner_end) : RangeEstimate{0.0, 0.0};
  bin.frequency = inner.frequency + cut_shared;
  bin.std_error = std::sqrt(inner.variance + cut_variance);
  if (bin.exact) {
    bin.ci_low = bin.frequency - kZ95 * bin.std_error;
    bin.ci_high = bin.frequency + kZ95 * bin.std_error;
    return bin;
  }
  // Between all of the answers in the cut cells being outside the bin and all of them inside.
  const RangeEstimate outer = estimates.Range(outer_first, outer_end);
  const double lower = std::min(inner.frequency, outer.frequency) - kZ95 * std::sqrt(inner.variance);
  const double upper = std::max(inner.frequency, outer.frequency) + kZ95 * std::sqrt(outer.variance);
  bin.ci_low = std::min(lower, bin.frequency);
  bin.ci_high = std::max(upper, bin.frequency);
  return bin;
}

}  // namespace

std::vector<CustomBin> EstimateCustomBins(const FinePartition& partition, const LevelEstimates& estimates,
                                          const std::vector<double>& edges) {
  std::vector<CustomBin> bins;
  for (std::size_t k = 0; k + 1 < edges.size(); ++k) {
    bins.push_back(EstimateBin(partition, estimates, edges[k], edges[k + 1]));
  }
  return bins;
}

}  // namespace deniable
