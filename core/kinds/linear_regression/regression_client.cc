#include "core/kinds/linear_regression/regression_client.h"

#include "core/common/validation.h"
#include "core/kinds/linear_regression/model_gradient.h"

namespace deniable {

KindClientEntry RegressionClient::Entry() { return {kType, &Parse}; }

Result<std::shared_ptr<const KindClient>> RegressionClient::Parse(const nlohmann::json& question,
                                                                  const std::string& where) {
  DENIABLE_ASSIGN_OR_RETURN(auto model, ParseModelDefinition(question, where));
  auto mechanism = GradientMechanism(model);
  if (!mechanism) return InContext(where, mechanism.error());
  const long long batch = ModelBatch(model, **mechanism);
  return std::shared_ptr<const KindClient>(new RegressionClient(std::move(model), std::move(mechanism).value(), batch));
}

Result<ModelDefinition> RegressionClient::LinkedModel(const EarlierClients& earlier, const std::string& where) const {
  auto range_of = [&](const std::string& id, const std::string& field) -> Result<NumericRange> {
    const KindClient* kind = earlier(id);
    if (kind == nullptr) {
      return MakeError(where + "." + field + ": no question \"" + id + "\" before this one (a model's variables are "
                       "earlier numeric questions)");
    }
    const auto answers = kind->numeric_answers();
    if (!answers) return MakeError(where + "." + field + ": question \"" + id + "\" is not numeric");
    return answers->range;
  };
  ModelDefinition model = model_;
  DENIABLE_ASSIGN_OR_RETURN(auto target, range_of(model.target, "target"));
  model.target_range = target;
  model.feature_ranges.clear();
  for (std::size_t i = 0; i < model.features.size(); ++i) {
    DENIABLE_ASSIGN_OR_RETURN(auto range, range_of(model.features[i], "features[" + std::to_string(i) + "]"));
    model.feature_ranges.push_back(range);
  }
  return model;
}

Result<std::shared_ptr<const KindClient>> RegressionClient::LinkClient(const EarlierClients& earlier,
                                                                       const std::string& where) const {
  DENIABLE_ASSIGN_OR_RETURN(auto model, LinkedModel(earlier, where));
  return std::shared_ptr<const KindClient>(new RegressionClient(std::move(model), mechanism_, batch_));
}

nlohmann::json RegressionClient::DefinitionToJson() const {
  nlohmann::json object = model_.ToJson();
  object["type"] = kType;
  return object;
}

nlohmann::json RegressionClient::MechanismToJson() const {
  return {{"name", model_.mechanism}, {"epsilon", model_.epsilon}, {"batch", batch_}, {"chains", model_.chains()}};
}

nlohmann::json RegressionClient::PrivacyToJson() const {
  return {{"epsilon", model_.epsilon},
          {"note", "each respondent sends one gradient component (chosen at random, independently of the answers) "
                   "perturbed by " + model_.mechanism + " at epsilon " + FormatNumber(model_.epsilon) +
                   "; the gradient is computed from the answers to " + model_.target + " and the features, which "
                   "their own questions also report, so the model's epsilon adds to theirs (sequential composition)" +
                   (model_.holdout_rounds() > 0
                        ? "; in the last " + std::to_string(model_.holdout_rounds()) + " rounds (held out) each "
                          "respondent sends instead the squared error of the final model's prediction at their "
                          "answers, perturbed at the same epsilon"
                        : std::string())}};
}

nlohmann::json RegressionClient::PageSummary() const {
  return {{"batch", batch_}, {"components", model_.components()}, {"max_rounds", model_.max_rounds()},
          {"holdout_rounds", model_.holdout_rounds()}, {"target", model_.target},
          {"features", model_.features}};
}

Result<nlohmann::json> RegressionClient::Perturb(const nlohmann::json& answer, RandomSource& random) const {
  DENIABLE_ASSIGN_OR_RETURN(auto parsed, ParseModelAnswer(model_, answer));
  return PerturbModelAnswer(model_, *mechanism_, parsed, random);
}

}  // namespace deniable
