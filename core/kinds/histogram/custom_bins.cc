#include "core/kinds/histogram/custom_bins.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "core/frequency/frequency_estimator.h"
#include "core/kinds/histogram/sharing_bias.h"

namespace deniable {
namespace {

constexpr double kZ95One = 1.6448536269514722;  // one-sided 95%

// How much of fine cell i lies in [low, high): 1 inside, 0 outside, between for a cut cell. An edge within
// round-off of a cell boundary is that boundary, so bins on the fine grid come out exact.
double OverlapShare(const FinePartition& partition, int i, double low, double high) {
  const double begin = partition.BoundaryValue(i), end = partition.BoundaryValue(i + 1);
  const double tolerance = 1e-9 * (end - begin);
  const double from = std::abs(low - begin) <= tolerance ? begin : std::max(begin, low);
  const double to = std::abs(high - end) <= tolerance ? end : std::min(end, high);
  return std::clamp((to - from) / (end - begin), 0.0, 1.0);
}

struct Weighted {
  double value = 0.0, variance = 0.0;
};

// sum_k lambda_k m_k over the unbiased cells, and its variance.
Weighted Apply(const LevelEstimates& estimates, const std::map<int, double>& weights) {
  Weighted sum;
  for (const auto& [cell, lambda] : weights) {
    sum.value += lambda * estimates.least_squares_cells()[static_cast<std::size_t>(cell)];
    sum.variance += lambda * lambda * estimates.Range(cell, cell + 1).variance;
  }
  return sum;
}

// The sharing's error over the bin's cut cells (sharing_bias.h): the first model's estimate, plus the
// largest difference of another model's from it (the model's own error), plus 1.645 standard errors of the
// first's (a one-sided 95% limit for the noise in the cells it reads).
double SharingBiasBound(const LevelEstimates& estimates, const std::vector<std::map<int, double>>& models) {
  const Weighted first = Apply(estimates, models.front());
  double spread = 0.0;
  for (std::size_t m = 1; m < models.size(); ++m) spread = std::max(spread, std::fabs(Apply(estimates, models[m]).value - first.value));
  return std::fabs(first.value) + spread + kZ95One * std::sqrt(first.variance);
}

CustomBin EstimateBin(const FinePartition& partition, const LevelEstimates& estimates, double low, double high) {
  CustomBin bin;
  bin.low_edge = low;
  bin.high_edge = high;
  int inner_first = -1, inner_end = -1, outer_first = -1, outer_end = -1;
  double cut_shared = 0.0, cut_variance = 0.0;
  std::vector<std::map<int, double>> models(3);  // sharing_bias.h's weights per fine cell, summed over the cut cells
  bool estimable = true;
  double worst_upper = 0.0;  // worst_case_bias with each cut cell at its one-sided 95% upper limit
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
    const double c = std::max(0.0, estimates.consistent_cells()[static_cast<std::size_t>(i)]);
    bin.worst_case_bias += std::max(share, 1.0 - share) * c;
    worst_upper += std::max(share, 1.0 - share) *
                   std::max(0.0, estimates.least_squares_cells()[static_cast<std::size_t>(i)] + kZ95One * std::sqrt(cell.variance));
    const double from = std::max(low, partition.BoundaryValue(i)), to = std::min(high, partition.BoundaryValue(i + 1));
    const auto own = SharingErrorModels(partition, i, from, to);
    estimable = estimable && own.size() >= 2;
    for (std::size_t m = 0; m < own.size() && m < models.size(); ++m) {
      for (const auto& [cell, lambda] : own[m]) models[m][cell] += lambda;
    }
  }
  if (estimates.n() == 0 || outer_first < 0) return bin;
  // Never above the worst case at the cut cells' 95% upper limits (where they are nearly empty the models read
  // mostly noise).
  if (!bin.exact) bin.bias_bound = estimable ? std::min(SharingBiasBound(estimates, models), worst_upper) : bin.worst_case_bias;
  const RangeEstimate inner = inner_first >= 0 ? estimates.Range(inner_first, inner_end) : RangeEstimate{0.0, 0.0};
  bin.frequency = inner.frequency + cut_shared;
  bin.std_error = std::sqrt(inner.variance + cut_variance);
  if (bin.exact) {
    bin.ci_low = bin.frequency - kZ95 * bin.std_error;
    bin.ci_high = bin.frequency + kZ95 * bin.std_error;
  } else {
    // Between all of the answers in the cut cells being outside the bin and all of them inside.
    const RangeEstimate outer = estimates.Range(outer_first, outer_end);
    const double lower = std::min(inner.frequency, outer.frequency) - kZ95 * std::sqrt(inner.variance);
    const double upper = std::max(inner.frequency, outer.frequency) + kZ95 * std::sqrt(outer.variance);
    bin.ci_low = std::min(lower, bin.frequency);
    bin.ci_high = std::max(upper, bin.frequency);
  }
  // A share lies in [0, 1]: clipping loses no coverage; stretched to hold the consistent value, so that no
  // estimate is outside its own interval.
  bin.consistent_ci_low = std::min(std::clamp(bin.ci_low, 0.0, 1.0), bin.consistent_frequency);
  bin.consistent_ci_high = std::max(std::clamp(bin.ci_high, 0.0, 1.0), bin.consistent_frequency);
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
