// A joint table made to agree with the shown marginals (post-processing,
// no privacy cost): non-negative, summing to 1, and with each attribute's
// margin equal to that attribute's consistent marginal.
//
// FitMargins: iterative proportional fitting from a non-negative table
// (each cell floored at 1e-9 so that a margin can reach every cell). IPF
// keeps the starting table's odds ratios where it can. At most 500 rounds,
// until no margin is off by more than 1e-10.
//
// ProjectOntoMargins: the table closest to the unbiased cells f in the
// metric of their variances, sum_c (P_c - f_c)^2 / v_c, among the
// non-negative tables with those margins (Norm-Sub's idea, with the
// margins for the total and each cell weighted by its precision). The truth's table is in
// that set when the margins are right, and a projection onto a convex set
// holding the truth moves no table further from it in that metric, so the
// result is never worse than the unbiased cells it starts from, and it keeps
// whatever dependence and zeros they show: each cell moves by v_c times the
// sum of its options' multipliers, not towards independence. Solved on the
// dual: for each option in turn, the multiplier that makes its margin exact
// (a piecewise-linear equation in one unknown, by Newton steps from the last
// value); at most kMaxSweeps sweeps, until no margin is off by more than
// 1e-10. A cell's variance is floored at 1e-12 of the largest.
#pragma once

#include <vector>


namespace deniable {

// margins: per attribute of the joint, its target distribution (sums to 1).
std::vector<double> FitMargins(std::vector<double> frequencies, const std::vector<int>& sizes,
                               const std::vector<std::vector<double>>& margins);

// frequency, variance: the unbiased cells and their variances (same order as FitMargins's cells).
std::vector<double> ProjectOntoMargins(const std::vector<double>& frequency, const std::vector<double>& variance,
                                       const std::vector<int>& sizes, const std::vector<std::vector<double>>& margins);

}  // namespace deniable
