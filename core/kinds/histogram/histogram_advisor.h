// What each way of collecting the declared consumers' histograms costs in
// accuracy, before collection: the expected count MSE per bin for each
// consumer, at epsilon and n (seed 000's digest section 5.6, corrected).
//
// With unary encodings every bit is perturbed independently, so a consumer's
// bins summed over all of them have an expected squared error that does not
// depend on the answers: over a partition of m fine cells,
//     (N p(1-p) + (m - 1) N q(1-q)) / (p - q)^2,
// which is m N sigma^2 for SUE (p(1-p) = q(1-q)); per bin, that over K_j.
//   chp_sue / chp_oue: one report over the fine cells at epsilon (this kind);
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

// Expected count MSE summed over a partition's bins: m cells, N reports.
double PartitionCountMse(SupportProbabilities pq, int cells, double n);

// consumer_bins[j]: consumer j's number of bins; fine_cells: the merged partition's.
nlohmann::json HistogramAdvice(const std::vector<std::string>& names, const std::vector<int>& consumer_bins,
                               int fine_cells, double epsilon, std::int64_t n);

}  // namespace deniable
