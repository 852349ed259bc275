#include "core/kinds/histogram/custom_bins.h"

#include <algorithm>
#include <cmath>

#include "core/kinds/histogram/consumer_bins.h"

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

CustomBin EstimateBin(const FinePartition& partition, const FrequencyEstimate& cells, SupportProbabilities pq,
                      double low, double high) {
  const auto n = static_cast<double>(cells.n);
  CustomBin bin;
  bin.low_edge = low;
  bin.high_edge = high;
  double inner = 0.0, cut_whole = 0.0, cut_shared = 0.0, cut_variance = 0.0;
  int inner_cells = 0, cut_cells = 0;
  const int last = high >= partition.range().high ? partition.cells() - 1 : partition.CellOf(high);
  for (int i = partition.CellOf(low); i <= last; ++i) {
    const double share = OverlapShare(partition, i, low, high);
    if (share <= 0.0) continue;
    const auto& cell = cells.options[static_cast<std::size_t>(i)];
    bin.consistent_frequency += share * cell.consistent_frequency;
    if (share >= 1.0) {
      inner += cell.count;
      ++inner_cells;
      continue;
    }
    bin.exact = false;
    cut_whole += cell.count;
    cut_shared += share * cell.count;
    cut_variance += share * share * BinCountVariance(pq, cell.count, 1, n);
    bin.bias_bound += std::max(share, 1.0 - share) * std::max(0.0, cell.consistent_frequency);
    ++cut_cells;
  }
  if (cells.n == 0) return bin;
  const double inner_variance = inner_cells > 0 ? BinCountVariance(pq, inner, inner_cells, n) : 0.0;
  bin.frequency = (inner + cut_shared) / n;
  bin.std_error = std::sqrt(inner_variance + cut_variance) / n;
  if (bin.exact) {
    bin.ci_low = bin.frequency - kZ95 * bin.std_error;
    bin.ci_high = bin.frequency + kZ95 * bin.std_error;
    return bin;
  }
  // Between all of the answers in the cut cells being outside the bin and all of them inside.
  const double outer = inner + cut_whole;
  const double outer_sd = std::sqrt(BinCountVariance(pq, outer, inner_cells + cut_cells, n));
  const double lower = std::min(inner, outer) - kZ95 * std::sqrt(inner_variance);
  const double upper = std::max(inner, outer) + kZ95 * outer_sd;
  bin.ci_low = std::min(lower / n, bin.frequency);
  bin.ci_high = std::max(upper / n, bin.frequency);
  return bin;
}

}  // namespace

std::vector<CustomBin> EstimateCustomBins(const FinePartition& partition, const FrequencyEstimate& cells,
                                          SupportProbabilities pq, const std::vector<double>& edges) {
  std::vector<CustomBin> bins;
  for (std::size_t k = 0; k + 1 < edges.size(); ++k) {
    bins.push_back(EstimateBin(partition, cells, pq, edges[k], edges[k + 1]));
  }
  return bins;
}

}  // namespace deniable
