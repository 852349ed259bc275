#include "core/kinds/histogram/consumer_bins.h"

#include <algorithm>

namespace deniable {

double BinCountVariance(SupportProbabilities pq, double bin_count, int cells, double n) {
  const double gap = pq.p - pq.q;
  const double clipped = std::clamp(bin_count, 0.0, n);
  return (clipped * pq.p * (1.0 - pq.p) + (cells * n - clipped) * pq.q * (1.0 - pq.q)) / (gap * gap);
}

}  // namespace deniable
