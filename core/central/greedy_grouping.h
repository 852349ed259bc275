// GGS, the greedy grouping of SReB_GCA (seed 001, Algorithm 2 with the
// digest's fixes, §3.5-3.6): over values sorted ascending, grow a contiguous
// group while its total relative error
//   Tot(l..r) = sum_t (|V_t - mean| + lambda/m) / w_t,  w_t = max(V_t, delta),
// beats the current total plus the Theorem 7 lower bound of the candidate
// starting its own group, lambda / ((n - r + 1) w_r) (1-based r); the first
// failure closes the group (Algorithm 2, not Definition 5's "max"); strict <.
// Tot is evaluated from prefix sums and a binary search, O(log n) per step,
// so the grouping is O(n log n) (the paper's naive form is O(n^2)).
//
// The values must be NOISY (the release's first phase): the grouping is
// post-processing of an epsilon_1-DP output only when it never sees a true count.
#pragma once

#include <cstddef>
#include <vector>

namespace deniable {

// The end positions (0-based, inclusive, increasing; the last is n - 1) of the
// groups of `sorted` (ascending). delta is the relative-error floor (1).
std::vector<std::size_t> GreedyGroupEnds(const std::vector<double>& sorted, double lambda, double delta = 1.0);

// The same rule with Tot summed directly, O(n^2): the reference the tests compare with.
std::vector<std::size_t> GreedyGroupEndsBruteForce(const std::vector<double>& sorted, double lambda, double delta = 1.0);

}  // namespace deniable
