#include "core/central/confidential_client.h"

namespace deniable {

std::shared_ptr<const KindClient> ConfidentialClient::Create(std::shared_ptr<const AnswerBins> bins,
                                                             ConfidentialPrivacy privacy) {
  return std::shared_ptr<const KindClient>(new ConfidentialClient(std::move(bins), privacy));
}

nlohmann::json ConfidentialClient::DefinitionToJson() const {
  nlohmann::json definition = bins_->DefinitionToJson();
  definition.update(TrustFieldsToJson(privacy_));
  return definition;
}

nlohmann::json ConfidentialClient::MechanismToJson() const {
  return {{"name", "central"}, {"budget", privacy_.budget}};
}

nlohmann::json ConfidentialClient::PrivacyToJson() const {
  return {{"epsilon", privacy_.budget},
          {"trust", "central"},
          {"note", "answered in confidence: the organisation receives the answer as it is; only releases with added "
                   "noise are published, and together they spend at most this budget. Epsilon bounds what the "
                   "releases reveal about one respondent's answer; who answered (the count of respondents) is not "
                   "hidden"}};
}

Result<nlohmann::json> ConfidentialClient::Perturb(const nlohmann::json& answer, RandomSource& /*random*/) const {
  DENIABLE_TRY(bins_->BinOf(answer));
  return answer;  // sent as it is: this question is answered in confidence
}

nlohmann::json ConfidentialClient::PageSummary() const {
  // The page tells these questions apart by privacy.trust == "central" (PrivacyToJson).
  nlohmann::json summary = bins_->PageSummary();
  summary["budget"] = privacy_.budget;
  return summary;
}

}  // namespace deniable
