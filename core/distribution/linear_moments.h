// The answers' mean and mean square as linear functions of the output counts,
// for any mechanism, with intervals that include the worst-case bias: the
// model-free check on the fitted distribution where the mechanism's report
// moments have no closed form (RVNS; report_moments.h has the closed forms).
//
// With T the cell-integrated transition matrix (m input cells, u_i the
// normalised cell centres) and output frequencies c/N, look for weights w on
// the output cells with (T^T w)_i = g_i for every input cell: then
// sum_j w_j c_j / N is unbiased for sum_i f_i g_i whatever the answers'
// distribution f. g_i = the average of u^k over cell i gives the k-th raw
// moment (k = 1..4: mean, spread, skewness and kurtosis follow). An exact solution may not exist or
// may need huge weights (noise), so w minimises
//   |T^T w - g|^2 + alpha sum_j q_j w_j^2,
// q_j the output frequencies under uniform answers (fixed before the data,
// so the weights do not depend on the counts they weigh), i.e. w = Q^-1 T z
// with (T^T Q^-1 T + alpha I) z = g (an m x m system, solved for every alpha
// through one Eigen eigendecomposition; callers pass a grid of about 100
// input cells: the cost is O(m^3)). Its
// residual is -alpha z, so the bias is at most alpha max_i |z_i| (the f_i
// sum to 1); the variance of one value's w is estimated by
// sum_j (c_j/N) w_j^2 - theta^2. alpha is chosen on a grid of half decades
// to give the shortest interval bias + 1.96 se (the bias-aware linear
// estimator of Donoho 1994 / Armstrong and Kolesar 2018, here over a grid).
//
// Standard errors treat a report's k values as if they were one (the
// variance of a report's average of k values is at most that of one value):
// conservative for RVNS with k > 1. Answers are taken as uniform within an
// input cell, as T does.
#pragma once

#include <cstdint>
#include <vector>

#include "core/common/result.h"
#include "core/distribution/transition_matrix.h"

namespace deniable {

struct LinearMoment {
  double value;           // on the normalised scale u in [0, 1]
  double bias_bound;      // |E[value] - truth| <= bias_bound
  double standard_error;
};

inline constexpr int kLinearMomentOrders = 4;

struct LinearMoments {
  std::vector<LinearMoment> raw;                // E[u^k] for k = 1..4 (raw[k - 1])
  std::vector<std::vector<double>> covariance;  // of the raw estimates
};

// counts: one per output cell of `transition`; reports >= 2.
Result<LinearMoments> EstimateLinearMoments(const TransitionMatrix& transition, const std::vector<double>& counts,
                                            std::int64_t reports);

}  // namespace deniable
