// What each way of collecting the declared consumers' histograms costs in
// accuracy, before collection: the expected count MSE per bin for each
// consumer, at epsilon and n (seed 000's digest section 5.6, corrected).
//
// With unary encodings every bit is perturbed independently, so a bin of m
// fine cells has count variance (n_b p(1-p) + (m N - n_b) q(1-q)) / (p - q)^2
// (consumer_bins.h). Mechanisms are compared, as the categorical advisor
// does, at the planning variance (bins with few answers, n_b -> 0):
// m N q(1-q) / (p - q)^2 = m N sigma^2, exact for SUE (p(1-p) = q(1-q));
// a consumer's bins together cost that with m the partition's cells.
//   chp_sue / chp_oue: one report over the fine cells at epsilon (this kind);
//   tree: one OUE report of one level of the tree (tree_design.h): a bin's
//     nodes at level l each add N sigma_OUE^2 / w_l, so a consumer's bins
//     together cost N sigma_OUE^2 sum_l c_l / w_l (DesignCost);
//   baseline: one report per consumer over its own K_j bins at epsilon / M
//     (the paper's SHP; the better of SUE and OUE there), the split that keeps
//     epsilon when consumers collude.
// CHP loses to the baseline for a coarse consumer when the fine cells are
// many and epsilon small (digest 3.5): {2, 100}-fold at epsilon 1 gives the
// 2-fold consumer bins of 50 fine cells each. The advice names the consumers
// for whom the baseline is better.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/frequency/categorical_mechanism.h"

namespace deniable {

// Planning count MSE summed over a partition's bins: m cells, N reports.
double PartitionCountMse(SupportProbabilities pq, int cells, double n);

// consumer_bins[j]: consumer j's number of bins; fine_cells: the merged
// partition's; tree_costs[j]: DesignCost of consumer j's bins under the tree
// the question would use.
nlohmann::json HistogramAdvice(const std::vector<std::string>& names, const std::vector<int>& consumer_bins,
                               int fine_cells, double epsilon, std::int64_t n, const std::vector<double>& tree_costs);

}  // namespace deniable
