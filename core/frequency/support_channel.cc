#include "core/frequency/support_channel.h"

namespace deniable {

SupportLikelihood SupportLikelihoodOf(const CategoricalMechanism& mechanism) {
  const SupportProbabilities pq = mechanism.probabilities();
  switch (mechanism.params().kind) {
    case CategoricalKind::kGrr: return {pq.p, pq.q};
    case CategoricalKind::kOue:
    case CategoricalKind::kSue: return {pq.p * (1.0 - pq.q), pq.q * (1.0 - pq.p)};
    case CategoricalKind::kNegativeSurvey: {
      const double k = mechanism.options();
      const double s = mechanism.params().reported_options;
      return {pq.p * (k - s) / s, 1.0 - pq.p};
    }
  }
  return {1.0, 1.0};
}

std::vector<double> SupportLikelihoodVector(const Support& support, SupportLikelihood weights) {
  std::vector<double> likelihood(support.size());
  for (std::size_t c = 0; c < support.size(); ++c) likelihood[c] = support[c] ? weights.supported : weights.unsupported;
  return likelihood;
}

std::vector<double> UnbiasedSupportIndicators(const Support& support, SupportProbabilities pq) {
  std::vector<double> indicators(support.size());
  for (std::size_t c = 0; c < support.size(); ++c) indicators[c] = (support[c] - pq.q) / (pq.p - pq.q);
  return indicators;
}

}  // namespace deniable
