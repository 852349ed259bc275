// Generalised randomized response (k-RR, Wang et al. 2017, "Locally
// Differentially Private Protocols for Frequency Estimation", §4.1).
// Reports the true option with p = e^eps / (e^eps + k - 1), and each other
// option with q = 1 / (e^eps + k - 1). epsilon-LDP since p / q = e^eps.
// Wire form: the reported option's index, e.g. 3.
#pragma once

#include "core/frequency/categorical_mechanism.h"

namespace deniable {

class GrrMechanism final : public CategoricalMechanism {
 public:
  explicit GrrMechanism(const CategoricalParams& params) : CategoricalMechanism(params) {}
  SupportProbabilities probabilities() const override;
  nlohmann::json Encode(const Support& support) const override;
  Result<Support> Decode(const nlohmann::json& wire) const override;

 protected:
  Support PerturbValid(int answer, RandomSource& random) const override;
};

}  // namespace deniable
