// A joint table made to agree with the shown marginals (post-processing,
// no privacy cost): non-negative, summing to 1, and with each attribute's
// margin equal to that attribute's consistent marginal, by iterative
// proportional fitting from a non-negative table (joint_em.h's, or the
// product of two parts'; each cell floored at 1e-9 so that a margin can
// reach every cell). IPF keeps the starting table's odds ratios where it
// can, so the dependence found survives. At most 500 rounds, until no margin
// is off by more than 1e-10.
#pragma once

#include <vector>


namespace deniable {

// margins: per attribute of the joint, its target distribution (sums to 1).
std::vector<double> FitMargins(std::vector<double> frequencies, const std::vector<int>& sizes,
                               const std::vector<std::vector<double>>& margins);

}  // namespace deniable
