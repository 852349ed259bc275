// Negative survey: the respondent reports s options that are NOT their answer.
//
// Pure version (no epsilon): the s options are drawn uniformly from the k-1
// options that are not the answer. The report never contains the answer, so
// an option in the report is certainly not the respondent's: the likelihood
// ratio is unbounded and there is NO finite LDP epsilon. Requires s <= k-2
// (s = k-1 would name the answer by elimination).
//
// Epsilon-bounded version: each s-subset S is reported with probability
// proportional to e^-eps if it contains the answer, and to 1 otherwise. Any
// two answers give every S probabilities within a factor e^eps, so it is
// exactly epsilon-LDP; for s = 1 the answer is reported with probability
// e^-eps times that of any other option. Sampling: include the answer with
//   p = w C(k-1, s-1) / (w C(k-1, s-1) + C(k-1, s)) = w s / (w s + k - s), w = e^-eps,
// then fill S uniformly from the other options. For an option j that is not
// the answer, q = P(j in S) = (p (s-1) + (1-p) s) / (k-1).
// The pure version is the limit w = 0 (p = 0, q = s / (k-1)).
// Wire form: the s option indices in increasing order, e.g. [0, 3].
#pragma once

#include <memory>

#include "core/frequency/categorical_mechanism.h"

namespace deniable {

class NegativeSurveyMechanism final : public CategoricalMechanism {
 public:
  explicit NegativeSurveyMechanism(const CategoricalParams& params) : CategoricalMechanism(params) {}
  SupportProbabilities probabilities() const override;
  nlohmann::json Encode(const Support& support) const override;
  Result<Support> Decode(const nlohmann::json& wire) const override;

 protected:
  Support PerturbValid(int answer, RandomSource& random) const override;
};

// Validates s against k and the variant, then builds the mechanism.
Result<std::unique_ptr<const CategoricalMechanism>> CreateNegativeSurvey(const CategoricalParams& params);

}  // namespace deniable
