// The paper's joint estimator (seed 002, Situation 1, eq. 11/17; digest
// section 3.7), for `paper` mode: the column counts of the k attributes'
// bits among the respondents who answered all of them, each block debiased
// with q(epsilon_per_attribute) (Formula 16 corrected), C (length
// t = sum l_a), then the non-negative LASSO
//   P = argmin_{P >= 0} ||C - M P||^2 + lambda ||P||_1
// over the r = prod l_a joint cells, M the t x r candidate matrix (column w:
// the one-hot codes of w's options, concatenated), then clipped and
// normalised. M is never built: M P marginalises P onto each attribute, and
// a cell's column touches one row per attribute.
//
// Solver (unspecified in the paper): cyclic coordinate descent from P = 0,
// no intercept, lambda = 0.01 ||M^T C||_inf (the digest's suggestion), at
// most 200 sweeps or until no cell moves by more than 1e-9 of s. Its cost is
// O(sweeps * r * k).
//
// It cannot estimate dependence: M P = C holds only the one-way marginals
// (rank t - k + 1), every joint with those marginals fits equally well, and
// the L1 penalty is the same for all of them. What it returns is decided by
// the solver, not the data; no interval is honest, and none is given.
#pragma once

#include <cstdint>

#include "core/kinds/block/block_aggregate.h"
#include "core/kinds/block/joint_estimator.h"

namespace deniable {

// Counts normalised to the group's n (variance empty: no interval).
JointCounts EstimateJointByLasso(const BlockAggregate& aggregate, std::uint32_t set, double epsilon_per_attribute);

}  // namespace deniable
