// Estimates of any range of fine cells from a histogram question's reports,
// flat (one level: the cells) or hierarchical (hierarchy.h).
//
// Level l's n_l respondents each sent one unary-encoded node, so node v's
// frequency among them is f_v = (S_v / n_l - q) / (p - q), unbiased. A range
// is the sum of its decomposition's nodes; its variance, level by level
// (levels come from disjoint respondents), is
//   (M p(1-p) + (|D| n_l - M) q(1-q)) / (n_l^2 (p - q)^2)      the bits' noise
//   + F (1 - F) (n - n_l) / (n_l (n - 1))                       which respondents chose level l
// with D the level's nodes in the range, F their estimated frequency and
// M = n_l F (both clipped to [0, 1]). That is the variance for these
// respondents (interval_target.h): a flat report has n_l = n, the second term
// vanishes and the first is consumer_bins.h's exact variance. For the
// population they were sampled from (the default), each level's respondents
// are n_l independent draws and the second term is F (1 - F) / n_l instead:
// a respondent's bits summed over D have variance E[Var | answer] + Var(E |
// answer) = the first term's per-respondent part + F (1 - F) (p - q)^2, the
// histogram form of Warner's lambda (1 - lambda) / (n (p - q)^2). The range
// of every cell is the root: frequency 1, variance 0.
//
// A tree (two levels or more) reports the range's least-squares estimate
// (hierarchy.h) instead of its decomposition's: also unbiased, and far more
// accurate for long ranges (9x lower count MSE for ranges of 64-127 of 256
// cells in build/histogram_bench), with the decomposition's variance, which
// bounds it: the interval is conservative there (the tree's tests check at
// least 95%).
#pragma once

#include <cstdint>
#include <vector>

#include "core/frequency/categorical_mechanism.h"
#include "core/kinds/histogram/hierarchy.h"
#include "core/survey/interval_target.h"

namespace deniable {

struct LevelCounts {
  std::int64_t n = 0;                 // respondents who reported this level
  std::vector<std::int64_t> counts;   // per node: reports whose bit was 1
};

struct RangeEstimate {
  double frequency = 0.0;  // unbiased
  double variance = 0.0;   // of the frequency; infinite when a level it needs has no reports
};

class LevelEstimates {
 public:
  // levels[l - 1] for l = 1..height; cells: the real leaves; target: what the variances are for.
  LevelEstimates(TreeShape shape, SupportProbabilities pq, int cells, std::vector<LevelCounts> levels,
                 IntervalTarget target);

  std::int64_t n() const { return n_; }
  IntervalTarget target() const { return target_; }
  int cells() const { return cells_; }
  // Cells [first, end), 0 <= first < end <= cells().
  RangeEstimate Range(int first, int end) const;
  // The same from the decomposition alone (what a flat report's Range is).
  RangeEstimate DecompositionRange(int first, int end) const;
  // Linear and unbiased, summing to 1, every node of the tree the sum of its
  // cells (hierarchy.h): lower variance than a range's decomposition, with no
  // variance formula here; for flat reports the cells' own estimates shifted
  // to sum to 1.
  const std::vector<double>& least_squares_cells() const { return least_squares_; }
  // Those made non-negative top down (subtree_norm_sub.h), still summing to 1:
  // what is shown as "consistent". A long range keeps its least-squares value
  // unless an ancestor's sibling had to be clipped; Norm-Sub over all cells at
  // once gave ranges over near-empty cells (a skewed answer's tail) several
  // times their share (histogram_bench, section 6).
  const std::vector<double>& consistent_cells() const { return consistent_; }
  // The planning variance of one node's frequency at each level (few answers in it).
  std::vector<double> NodeVariances() const;
  // The planning variance of cells [first, end): their nodes' planning variances summed, plus for the
  // population each level's sampling variance at its estimated share.
  double PlanningVariance(int first, int end) const;

 private:
  TreeShape shape_;
  SupportProbabilities pq_;
  int cells_;
  IntervalTarget target_;
  std::vector<LevelCounts> levels_;
  std::vector<std::vector<double>> frequencies_;  // per level, per node
  std::int64_t n_ = 0;
  std::vector<double> least_squares_;
  std::vector<double> least_squares_prefix_;  // sums of the cells before each index
  std::vector<double> consistent_;
};

}  // namespace deniable
