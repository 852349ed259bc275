// The client half of a linear regression question (regression_question_kind.h):
// the model's definition, the mechanism that perturbs one gradient component
// (model_gradient.h), and the link to the earlier numeric questions whose
// answers are its variables.
#pragma once

#include <functional>
#include <memory>
#include <string>

#include "core/kinds/linear_regression/model_definition.h"
#include "core/numeric/numeric_mechanism.h"
#include "core/survey/kind_client.h"
#include "core/survey/kind_registry.h"

namespace deniable {

class RegressionClient : public virtual KindClient {
 public:
  static constexpr const char* kType = "linear_regression";
  static KindClientEntry Entry();
  static Result<std::shared_ptr<const KindClient>> Parse(const nlohmann::json& question, const std::string& where);

  const ModelDefinition& model() const { return model_; }

  std::string_view type() const override { return kType; }
  nlohmann::json DefinitionToJson() const override;
  nlohmann::json MechanismToJson() const override;
  std::optional<double> epsilon() const override { return model_.epsilon; }
  nlohmann::json PrivacyToJson() const override;
  Result<nlohmann::json> Perturb(const nlohmann::json& answer, RandomSource& random) const override;
  nlohmann::json PageSummary() const override;
  Result<std::shared_ptr<const KindClient>> LinkClient(const EarlierClients& earlier,
                                                       const std::string& where) const override;

 protected:
  // Only Parse builds one: an invalid kind cannot exist.
  RegressionClient(ModelDefinition model, std::shared_ptr<const NumericMechanism> mechanism, long long batch)
      : model_(std::move(model)), mechanism_(std::move(mechanism)), batch_(batch) {}
  // The model with its target's and features' ranges read from the earlier
  // questions it names (both parses link through this).
  Result<ModelDefinition> LinkedModel(const EarlierClients& earlier, const std::string& where) const;

  ModelDefinition model_;
  std::shared_ptr<const NumericMechanism> mechanism_;
  long long batch_;
};

}  // namespace deniable
