#include "core/kinds/histogram/consumer_bins.h"

#include <algorithm>
#include <cmath>
#include <cstddef>

namespace deniable {

double BinCountVariance(SupportProbabilities pq, double bin_count, int cells, double n) {
  const double gap = pq.p - pq.q;
  const double clipped = std::clamp(bin_count, 0.0, n);
  return (clipped * pq.p * (1.0 - pq.p) + (cells * n - clipped) * pq.q * (1.0 - pq.q)) / (gap * gap);
}

std::vector<BinEstimate> EstimateBins(const FrequencyEstimate& cells, const std::vector<int>& bin_starts,
                                      SupportProbabilities pq) {
  std::vector<BinEstimate> bins;
  const auto n = static_cast<double>(cells.n);
  for (std::size_t b = 0; b + 1 < bin_starts.size(); ++b) {
    BinEstimate bin;
    bin.first_cell = bin_starts[b];
    bin.end_cell = bin_starts[b + 1];
    for (int k = bin.first_cell; k < bin.end_cell; ++k) bin.count += cells.options[static_cast<std::size_t>(k)].count;
    if (cells.n > 0) {
      bin.frequency = bin.count / n;
      bin.std_error = std::sqrt(BinCountVariance(pq, bin.count, bin.end_cell - bin.first_cell, n)) / n;
      bin.ci_low = bin.frequency - kZ95 * bin.std_error;
      bin.ci_high = bin.frequency + kZ95 * bin.std_error;
    }
    bins.push_back(bin);
  }
  return bins;
}

}  // namespace deniable
