// The category channel of a categorical question (answer_channel.h): its
// options, and per report the likelihood and unbiased indicators of every
// mechanism (grr, oue, sue, the negative survey with or without epsilon:
// core/frequency/support_channel.h).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/frequency/categorical_mechanism.h"
#include "core/frequency/support_channel.h"
#include "core/survey/answer_channel.h"

namespace deniable {

class CategoricalChannel final : public CategoryChannel {
 public:
  CategoricalChannel(std::vector<std::string> labels, std::shared_ptr<const CategoricalMechanism> mechanism);
  std::size_t categories() const override { return labels_.size(); }
  std::vector<std::string> category_labels() const override { return labels_; }
  // `response` is a CategoricalResponse.
  std::vector<double> Likelihood(const KindResponse& response) const override;
  std::vector<double> UnbiasedIndicators(const KindResponse& response) const override;

 private:
  std::vector<std::string> labels_;
  std::shared_ptr<const CategoricalMechanism> mechanism_;
  SupportLikelihood weights_;
};

}  // namespace deniable
