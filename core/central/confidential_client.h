// The client half of a question answered in confidence (confidential_question_kind.h):
// the answer is checked against the question's bins and sent as it is; the
// page shows the publication budget. Built by the categorical and histogram
// clients' parsers when the definition says "privacy": "central".
#pragma once

#include <memory>

#include "core/central/answer_bins.h"
#include "core/central/confidential_privacy.h"
#include "core/survey/kind_client.h"

namespace deniable {

class ConfidentialClient : public virtual KindClient {
 public:
  static std::shared_ptr<const KindClient> Create(std::shared_ptr<const AnswerBins> bins, ConfidentialPrivacy privacy);

  const AnswerBins& bins() const { return *bins_; }
  const ConfidentialPrivacy& privacy() const { return privacy_; }

  std::string_view type() const override { return bins_->type(); }
  nlohmann::json DefinitionToJson() const override;
  nlohmann::json MechanismToJson() const override;
  std::optional<double> epsilon() const override { return privacy_.budget; }
  nlohmann::json PrivacyToJson() const override;
  Trust trust() const override { return Trust::kCentral; }
  Result<nlohmann::json> Perturb(const nlohmann::json& answer, RandomSource& random) const override;
  nlohmann::json PageSummary() const override;
  std::optional<NumericAnswers> numeric_answers() const override { return bins_->numeric_answers(); }

 protected:
  ConfidentialClient(std::shared_ptr<const AnswerBins> bins, ConfidentialPrivacy privacy)
      : bins_(std::move(bins)), privacy_(privacy) {}

  std::shared_ptr<const AnswerBins> bins_;
  ConfidentialPrivacy privacy_;
};

}  // namespace deniable
