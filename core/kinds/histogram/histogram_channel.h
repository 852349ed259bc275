// The category channel of a histogram question at its finest bins (the fine
// partition's cells, answer_channel.h), for cross-tabulations and breakdowns.
//
// sue and oue: a report is a unary report over the cells, so the categorical
// channel applies as is (support_channel.h).
//
// tree: a report is one level's unary report over that level's nodes, the
// level drawn with the design's weights independently of the answer. Its
// likelihood given cell c is the level's weight (common to all c) times the
// unary likelihood of c's ancestor at that level: exact. Unbiased cell
// indicators come only from the leaf level, (bit_c - q) / (p - q) / w_h for a
// leaf report and 0 for any other: a coarser node's report says nothing
// unbiased about which of its cells holds the answer. They are unbiased but
// noisy (the variance grows as 1/w_h), so the cross-tab's unbiased cells of a
// tree question are wide; its consistent table (EM) uses every level. A
// design without a leaf level (w_h = 0) has no unbiased cells: no channel.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/frequency/categorical_mechanism.h"
#include "core/frequency/support_channel.h"
#include "core/kinds/histogram/fine_partition.h"
#include "core/kinds/histogram/hierarchy.h"
#include "core/kinds/histogram/tree_design.h"
#include "core/survey/answer_channel.h"

namespace deniable {

class HistogramChannel final : public CategoryChannel {
 public:
  // Null for a tree whose leaf level has no weight.
  static std::unique_ptr<HistogramChannel> Create(const FinePartition& partition, const TreeShape& shape,
                                                  const std::optional<TreeDesign>& tree,
                                                  const CategoricalMechanism& encoding);
  std::size_t categories() const override { return labels_.size(); }
  std::vector<std::string> category_labels() const override { return labels_; }
  // `response` is a HistogramResponse.
  std::vector<double> Likelihood(const KindResponse& response) const override;
  std::vector<double> UnbiasedIndicators(const KindResponse& response) const override;

 private:
  HistogramChannel(std::vector<std::string> labels, TreeShape shape, double leaf_weight, SupportProbabilities pq,
                   SupportLikelihood weights)
      : labels_(std::move(labels)), shape_(shape), leaf_weight_(leaf_weight), pq_(pq), weights_(weights) {}

  std::vector<std::string> labels_;  // one per fine cell
  TreeShape shape_;
  double leaf_weight_;  // the probability of a leaf-level report (1 without a tree)
  SupportProbabilities pq_;
  SupportLikelihood weights_;
};

}  // namespace deniable
