// An exhaustive privacy audit of PMOUE on small blocks (digest section 7.F):
// over every pair of answer vectors and every possible report, the largest
// log-likelihood ratio. With a split fixed independently of the answers it
// is exactly the sum of the shares (each attribute's OUE is tight at its
// share, and the attributes' reports are independent); a split that
// depends on the answers exceeds it (digest section 4's counterexample),
// which is what the audit is for. Cost: O(prod l * 2^(sum l) * sum l) per
// answer vector pair; meant for blocks of a few bits.
#pragma once

#include <functional>
#include <vector>

namespace deniable {

// split: the shares for an answer vector (one option index per attribute).
double WorstLogLikelihoodRatio(const std::vector<int>& sizes,
                               const std::function<std::vector<double>(const std::vector<int>&)>& split);

}  // namespace deniable
