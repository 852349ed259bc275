// Unary encoding (Wang et al. 2017, §4.3): the answer becomes a one-hot vector
// of k bits and every bit is flipped independently:
//   bit of the answer stays 1 with probability p, any other bit becomes 1 with q.
// SUE (symmetric, basic one-time RAPPOR): p = e^(eps/2) / (e^(eps/2) + 1), q = 1 - p.
// OUE (optimised): p = 1/2, q = 1 / (e^eps + 1), which minimises the variance.
// Both are epsilon-LDP: the worst likelihood ratio is p(1-q) / (q(1-p)) = e^eps.
// Wire form: the k bits, e.g. [0, 1, 1, 0].
#pragma once

#include "core/frequency/categorical_mechanism.h"

namespace deniable {

class UnaryEncodingMechanism final : public CategoricalMechanism {
 public:
  explicit UnaryEncodingMechanism(const CategoricalParams& params) : CategoricalMechanism(params) {}
  SupportProbabilities probabilities() const override;
  nlohmann::json Encode(const Support& support) const override;
  Result<Support> Decode(const nlohmann::json& wire) const override;

 protected:
  Support PerturbValid(int answer, RandomSource& random) const override;
};

}  // namespace deniable
