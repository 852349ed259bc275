// Non-negative cells that keep the totals of coarse ranges: Norm-Sub
// (core/frequency/norm_sub.h) applied top down on a binary tree over the cells
// (padded to a power of two), each node's two halves made non-negative and
// summing to the node's own value. The node totals come from the input, which
// must already be consistent (least squares on the tree, hierarchy.h), so the
// value of a long range is not moved by clipping the cells inside it.
//
// Why not Norm-Sub over all cells at once: it sets every negative cell to 0
// and shifts the others by one common delta, so a range of many empty cells
// (a skewed answer's tail) keeps the positive half of its cells' noise: on
// real weekly earnings its consistent share was several times the truth and
// its MSE 4x the unbiased estimate's (bench/histogram_bench.cc, section 6).
// Top down, a range's value moves only by the clipping of its ancestors'
// siblings, which are long ranges whose estimates are rarely negative.
//
// With a tree mechanism of fan-out 2, 4, 8 or 16 every node of its tree is a
// node of this binary tree (both are aligned at powers of two), so the
// hierarchy respected here includes the one the reports were made on.
// O(cells log cells).
#pragma once

#include <vector>

namespace deniable {

// cells: summing to `total` (>= 0); result non-negative with the same total.
std::vector<double> SubtreeNormSub(const std::vector<double>& cells, double total);

}  // namespace deniable
