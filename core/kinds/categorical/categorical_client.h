// The client half of a categorical question (categorical_question_kind.h):
// options 0..k-1 and the mechanism (GRR, OUE, SUE, the negative survey) that
// perturbs the chosen one into a report. Its parser also builds the open
// (open_categorical_client.h) and confidential (confidential_client.h) variants.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/frequency/categorical_mechanism.h"
#include "core/survey/kind_client.h"
#include "core/survey/kind_registry.h"

namespace deniable {

class CategoricalClient : public virtual KindClient {
 public:
  static constexpr const char* kType = "categorical";
  static KindClientEntry Entry();
  // A categorical question's client: this class, OpenCategoricalClient or ConfidentialClient.
  static Result<std::shared_ptr<const KindClient>> Parse(const nlohmann::json& question, const std::string& where);

  const std::vector<std::string>& options() const { return options_; }
  const CategoricalMechanism& mechanism() const { return *mechanism_; }

  std::string_view type() const override { return kType; }
  nlohmann::json DefinitionToJson() const override;
  nlohmann::json MechanismToJson() const override;
  std::optional<double> epsilon() const override { return mechanism_->epsilon(); }
  nlohmann::json PrivacyToJson() const override;
  Result<nlohmann::json> Perturb(const nlohmann::json& answer, RandomSource& random) const override;
  nlohmann::json PageSummary() const override;

 protected:
  // Only Parse builds one: an invalid kind cannot exist.
  CategoricalClient(std::vector<std::string> options, std::shared_ptr<const CategoricalMechanism> mechanism)
      : options_(std::move(options)), mechanism_(std::move(mechanism)) {}

  std::vector<std::string> options_;
  std::shared_ptr<const CategoricalMechanism> mechanism_;
};

// {"epsilon": e} or {"epsilon": null, "note": ...} for a categorical mechanism.
nlohmann::json PrivacyToJson(const CategoricalMechanism& mechanism);
nlohmann::json MechanismToJson(const CategoricalMechanism& mechanism);

}  // namespace deniable
