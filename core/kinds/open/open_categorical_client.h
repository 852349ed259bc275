// The client half of a categorical question asked openly (open_categorical_kind.h):
// the option index is checked and sent as given.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/kinds/categorical/categorical_bins.h"
#include "core/survey/kind_client.h"

namespace deniable {

class OpenCategoricalClient : public virtual KindClient {
 public:
  static std::shared_ptr<const KindClient> Create(std::vector<std::string> options);

  const std::vector<std::string>& options() const { return options_; }

  std::string_view type() const override { return "categorical"; }
  nlohmann::json DefinitionToJson() const override;
  nlohmann::json MechanismToJson() const override { return {{"name", "open"}}; }
  std::optional<double> epsilon() const override { return std::nullopt; }
  nlohmann::json PrivacyToJson() const override;
  Trust trust() const override { return Trust::kOpen; }
  Result<nlohmann::json> Perturb(const nlohmann::json& answer, RandomSource& random) const override;
  nlohmann::json PageSummary() const override { return nlohmann::json::object(); }

 protected:
  explicit OpenCategoricalClient(std::vector<std::string> options) : options_(std::move(options)), bins_(options_) {}

  std::vector<std::string> options_;
  CategoricalBins bins_;  // after the options it is built from
};

}  // namespace deniable
