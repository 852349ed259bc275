#include "core/kinds/categorical/categorical_channel.h"

#include "core/kinds/categorical/categorical_question_kind.h"

namespace deniable {

CategoricalChannel::CategoricalChannel(std::vector<std::string> labels,
                                       std::shared_ptr<const CategoricalMechanism> mechanism)
    : labels_(std::move(labels)), mechanism_(std::move(mechanism)), weights_(SupportLikelihoodOf(*mechanism_)) {}

std::vector<double> CategoricalChannel::Likelihood(const KindResponse& response) const {
  return SupportLikelihoodVector(static_cast<const CategoricalResponse&>(response).support, weights_);
}

std::vector<double> CategoricalChannel::UnbiasedIndicators(const KindResponse& response) const {
  return UnbiasedSupportIndicators(static_cast<const CategoricalResponse&>(response).support,
                                   mechanism_->probabilities());
}

}  // namespace deniable
