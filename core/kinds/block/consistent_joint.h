// A joint table made consistent (post-processing, no privacy cost):
// non-negative, summing to 1, and with each attribute's margin equal to that
// attribute's consistent marginal (the one the dashboard shows), by
// iterative proportional fitting from the Norm-Sub of the unbiased joint
// (each cell floored at 1e-9 so that a margin can reach every cell). IPF
// keeps the starting table's odds ratios where it can, so the dependence
// the joint estimator found survives. At most 500 rounds, until no margin is
// off by more than 1e-10.
#pragma once

#include <vector>

#include "core/kinds/block/joint_estimator.h"

namespace deniable {

// margins: per attribute of the joint, its target distribution (sums to 1).
std::vector<double> ConsistentJoint(const JointCounts& joint, const std::vector<std::vector<double>>& margins);

// The same from frequencies already non-negative (products of parts, the LASSO's).
std::vector<double> FitMargins(std::vector<double> frequencies, const std::vector<int>& sizes,
                               const std::vector<std::vector<double>>& margins);

}  // namespace deniable
