// Norm-Sub consistency (Wang, Lopuhaä-Zwakenberg et al., "Locally Differentially
// Private Frequency Estimation with Consistency", NDSS 2020): the closest
// post-processing that is non-negative and sums to `total`:
// x_i' = max(x_i + delta, 0) with delta chosen so that sum x_i' = total.
// Post-processing costs no privacy. It trades a little bias (small options are
// pulled up to 0) for lower overall error; the unbiased estimates stay reported.
#pragma once

#include <vector>

namespace deniable {

std::vector<double> NormSub(const std::vector<double>& estimates, double total);

}  // namespace deniable
