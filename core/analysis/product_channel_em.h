// The maximum-likelihood joint distribution of two or three questions'
// answers from their reports, when each question is randomised on its own:
// the channel of a report's pair (triple) of responses is the product of the
// questions' channels (answer_channel.h), so a report's likelihood given the
// joint answer x = (x_1, ..., x_m) is prod_j L_j(response_j | x_j).
//
// Reports are grouped by their pattern: the tuple of their questions'
// likelihood vectors (each scaled to a largest entry of 1, which changes no
// posterior). Categorical reports have few patterns (GRR: k, the negative
// survey: C(k, s), unary encodings: at most 2^k, and never more than n), so
// each EM round costs O(patterns x cells) whatever n.
//
// EM (the posterior of each pattern's joint answer, averaged with its count):
//   P(x) <- sum_g n_g L_g(x) P(x) / sum_x' L_g(x') P(x') / N
// keeps P a distribution (non-negative, summing to 1) and never lowers the
// likelihood. Accelerated by SQUAREM (Varadhan & Roland 2008, scheme S3: the
// extrapolated step kept only when the likelihood does not fall), until no
// cell moves by more than 1e-9 or max_rounds EM steps.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <vector>

#include "core/common/result.h"

namespace deniable {

class ProductChannelPatterns {
 public:
  // The questions' numbers of categories.
  explicit ProductChannelPatterns(std::vector<std::size_t> sizes);
  // One report: per question its likelihood vector (of that question's size).
  void Add(const std::vector<std::vector<double>>& likelihoods);
  const std::vector<std::size_t>& sizes() const { return sizes_; }
  std::size_t cells() const;
  std::int64_t n() const { return n_; }
  std::size_t patterns() const { return counts_.size(); }
  // L_g(x) for every cell x of pattern g (cells in mixed radix, the first question most significant).
  std::vector<double> PatternLikelihood(std::size_t g) const;
  std::int64_t count(std::size_t g) const { return counts_[g]; }

 private:
  std::vector<std::size_t> sizes_;
  std::vector<std::map<std::vector<double>, std::size_t>> dictionary_;  // per question: vector -> its index
  std::vector<std::vector<std::vector<double>>> vectors_;               // per question: index -> vector
  std::map<std::vector<std::size_t>, std::size_t> pattern_index_;
  std::vector<std::vector<std::size_t>> patterns_;
  std::vector<std::int64_t> counts_;
  std::int64_t n_ = 0;
};

struct EmJointFit {
  std::vector<double> table;  // non-negative, sums to 1
  int rounds = 0;             // EM steps evaluated
  bool converged = false;
  double log_likelihood = 0.0;
};

inline constexpr int kMaxProductEmRounds = 3000;

// `start`: a distribution over the cells with no zero (EM cannot leave a zero).
// Fails with kEstimationCancelled when `cancelled` says so.
Result<EmJointFit> FitProductChannelEm(const ProductChannelPatterns& patterns, std::vector<double> start,
                                       const std::function<bool()>& cancelled, int max_rounds = kMaxProductEmRounds);

}  // namespace deniable
