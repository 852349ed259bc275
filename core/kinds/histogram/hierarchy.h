// The shape of a hierarchical histogram (Cormode, Kulkarni and Srivastava,
// "Answering range queries under local differential privacy", VLDB 2019):
// a tree of fan-out B over B^h leaves (the fine cells, padded with empty
// leaves), levels 1..h below the root. Each respondent reports one level's
// node (the one holding the answer), so any range of leaves is the sum of at
// most 2(B - 1) nodes per level instead of one per leaf.
//
// A flat unary report (SUE, OUE over the fine cells) is the shape {cells, 1}:
// one level, the cells themselves; everything below serves both.
//
// Consistency: node estimates from disjoint respondents are combined by
// generalised least squares on the tree (each node's own estimate and the sum
// of its children's, weighted by their variances, bottom up; then the root's
// known total handed down in proportion to the variances), the weighted form
// of Hay et al.'s two passes (VLDB 2010), needed because level weights make
// the levels' variances differ. O(nodes).
#pragma once

#include <vector>

namespace deniable {

struct TreeShape {
  int fanout = 2;  // children per node
  int height = 1;  // levels below the root; level `height` holds the leaves
  int NodesAt(int level) const;  // fanout^level (level 0: the root)
  int Leaves() const { return NodesAt(height); }
  int SpanOf(int level) const;  // leaves under one node at `level`
};

struct TreeNode {
  int level;  // 0: the root (every leaf; its frequency is 1 exactly)
  int index;  // 0..NodesAt(level) - 1
};

// The fewest nodes whose leaves are exactly [first, end) (0 <= first < end <=
// Leaves()), taking a node whenever `usable(level)` and descending otherwise
// (a level no respondent reported is not usable; leaves always are).
template <typename Usable>
std::vector<TreeNode> Decompose(const TreeShape& shape, int first, int end, Usable usable);
std::vector<TreeNode> Decompose(const TreeShape& shape, int first, int end);

// Least-squares leaf frequencies: estimates[l - 1][v] is node v's at level l
// (1..h) with variance variances[l - 1] (infinite: no estimate); leaves from
// `real_leaves` on are known empty. Linear and unbiased; the leaves' values
// sum to 1 and every node's is the sum of its leaves' (they may be negative).
std::vector<double> LeastSquaresLeaves(const TreeShape& shape, const std::vector<std::vector<double>>& estimates,
                                     const std::vector<double>& variances, int real_leaves);

// ---- implementation of the template

namespace hierarchy_detail {
template <typename Usable>
void DecomposeInto(const TreeShape& shape, TreeNode node, int first, int end, Usable& usable,
                   std::vector<TreeNode>& out) {
  const int span = shape.SpanOf(node.level);
  const int begin = node.index * span, finish = begin + span;
  if (finish <= first || begin >= end) return;
  if (first <= begin && finish <= end && (node.level == 0 || node.level == shape.height || usable(node.level))) {
    out.push_back(node);
    return;
  }
  for (int child = 0; child < shape.fanout; ++child) {
    DecomposeInto(shape, TreeNode{node.level + 1, node.index * shape.fanout + child}, first, end, usable, out);
  }
}
}  // namespace hierarchy_detail

template <typename Usable>
std::vector<TreeNode> Decompose(const TreeShape& shape, int first, int end, Usable usable) {
  std::vector<TreeNode> nodes;
  hierarchy_detail::DecomposeInto(shape, TreeNode{0, 0}, first, end, usable, nodes);
  return nodes;
}

}  // namespace deniable
