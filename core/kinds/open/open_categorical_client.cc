#include "core/kinds/open/open_categorical_client.h"

#include "core/kinds/open/open_privacy.h"

namespace deniable {

std::shared_ptr<const KindClient> OpenCategoricalClient::Create(std::vector<std::string> options) {
  return std::shared_ptr<const KindClient>(new OpenCategoricalClient(std::move(options)));
}

nlohmann::json OpenCategoricalClient::DefinitionToJson() const {
  return {{"type", "categorical"}, {"options", options_}, {"privacy", kOpenPrivacy}};
}

nlohmann::json OpenCategoricalClient::PrivacyToJson() const { return OpenPrivacyToJson(); }

Result<nlohmann::json> OpenCategoricalClient::Perturb(const nlohmann::json& answer, RandomSource& /*random*/) const {
  DENIABLE_TRY(bins_.BinOf(answer));
  return answer;  // asked openly: sent as given
}

}  // namespace deniable
