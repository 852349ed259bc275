#include "core/kinds/linear_regression/model_definition.h"

#include <algorithm>
#include <cmath>

#include "core/common/json_fields.h"
#include "core/common/validation.h"
#include "core/numeric/duchi.h"
#include "core/numeric/piecewise.h"
#include "core/survey/question_fields.h"

namespace deniable {
namespace {

Result<double> ReadOptionalNumber(const nlohmann::json& object, const char* field, double fallback, double low,
                                  double high, const std::string& where) {
  if (!object.contains(field)) return fallback;
  auto value = ReadFiniteNumber(object, field, where);
  if (!value) return value;
  if (*value < low || *value > high) {
    return MakeError(JoinPath(where, field) + ": must be in [" + FormatNumber(low) + ", " + FormatNumber(high) +
                     "], but is " + FormatNumber(*value));
  }
  return value;
}

}  // namespace

nlohmann::json ModelDefinition::ToJson() const {
  nlohmann::json object = {{"target", target},       {"features", features}, {"epsilon", epsilon},
                           {"mechanism", mechanism}, {"ridge", ridge},       {"learning_rate", learning_rate},
                           {"clip", clip}};
  if (batch) object["batch"] = *batch;
  if (declared_chains) object["chains"] = *declared_chains;
  if (declared_max_rounds) object["max_rounds"] = *declared_max_rounds;
  if (holdout > 0.0) object["holdout"] = holdout;
  return object;
}

Result<ModelDefinition> ParseModelDefinition(const nlohmann::json& object, const std::string& where) {
  DENIABLE_TRY(RejectUnknownQuestionFields(
      object, {"target", "features", "epsilon", "mechanism", "ridge", "batch", "learning_rate", "clip", "chains",
               "max_rounds", "holdout"},
      where));
  ModelDefinition model;
  DENIABLE_ASSIGN_OR_RETURN(auto target, ReadString(object, "target", 64, true, where));
  model.target = target;
  if (!object.contains("features")) return MakeError(JoinPath(where, "features") + ": required field is missing");
  const auto& features = object.at("features");
  if (!features.is_array() || features.empty() || features.size() > static_cast<std::size_t>(kMaxModelFeatures)) {
    return MakeError(JoinPath(where, "features") + ": must be an array of 1 to " + std::to_string(kMaxModelFeatures) +
                     " question ids");
  }
  for (std::size_t i = 0; i < features.size(); ++i) {
    const std::string path = JoinPath(where, "features") + "[" + std::to_string(i) + "]";
    if (!features[i].is_string()) return MakeError(path + ": must be a question id, but is " + features[i].dump());
    const std::string id = features[i].get<std::string>();
    if (id == model.target || std::count(model.features.begin(), model.features.end(), id) > 0) {
      return MakeError(path + ": \"" + id + "\" is already a variable of the model");
    }
    model.features.push_back(id);
  }
  DENIABLE_ASSIGN_OR_RETURN(auto epsilon, ReadFiniteNumber(object, "epsilon", where));
  if (auto valid = ValidateEpsilon(epsilon); !valid) return InContext(JoinPath(where, "epsilon"), valid.error());
  model.epsilon = epsilon;
  DENIABLE_ASSIGN_OR_RETURN(auto mechanism, ReadString(object, "mechanism", 16, false, where));
  if (!mechanism.empty()) {
    if (mechanism != "piecewise" && mechanism != "duchi") {
      return MakeError(JoinPath(where, "mechanism") + ": must be \"piecewise\" or \"duchi\", but is \"" + mechanism + "\"");
    }
    model.mechanism = mechanism;
  }
  DENIABLE_ASSIGN_OR_RETURN(auto ridge, ReadOptionalNumber(object, "ridge", 1e-4, 0.0, 10.0, where));
  model.ridge = ridge;
  DENIABLE_ASSIGN_OR_RETURN(auto rate, ReadOptionalNumber(object, "learning_rate", 1.0, 1e-4, 100.0, where));
  model.learning_rate = rate;
  DENIABLE_ASSIGN_OR_RETURN(auto clip, ReadOptionalNumber(object, "clip", 1.0, 1e-3, 100.0, where));
  model.clip = clip;
  if (object.contains("batch")) {
    DENIABLE_ASSIGN_OR_RETURN(auto batch, ReadInteger(object, "batch", 1, 10000000, where));
    model.batch = batch;
  }
  if (object.contains("chains")) {
    DENIABLE_ASSIGN_OR_RETURN(auto chains, ReadInteger(object, "chains", 1, kMaxModelChains, where));
    model.declared_chains = static_cast<int>(chains);
  }
  if (object.contains("max_rounds")) {
    DENIABLE_ASSIGN_OR_RETURN(auto rounds, ReadInteger(object, "max_rounds", 1, kMaxModelRounds, where));
    // Fewer rounds than chains would leave a chain untrained: never an interval.
    if (rounds < model.chains()) {
      return MakeError(JoinPath(where, "max_rounds") + ": must be at least the number of chains (" +
                       std::to_string(model.chains()) + "), so that every chain trains, but is " +
                       std::to_string(rounds));
    }
    model.declared_max_rounds = rounds;
  }
  DENIABLE_ASSIGN_OR_RETURN(auto holdout, ReadOptionalNumber(object, "holdout", 0.0, 0.0, 0.5, where));
  model.holdout = holdout;
  if (model.training_rounds() < model.chains()) {
    return MakeError(JoinPath(where, "holdout") + ": leaves " + std::to_string(model.training_rounds()) +
                     " training rounds of " + std::to_string(model.max_rounds()) + ", fewer than the chains (" +
                     std::to_string(model.chains()) + "): lower it or raise max_rounds");
  }
  return model;
}

long long ModelDefinition::holdout_rounds() const {
  return static_cast<long long>(std::ceil(holdout * static_cast<double>(max_rounds()) - 1e-9));
}

Result<std::shared_ptr<const NumericMechanism>> GradientMechanism(const ModelDefinition& model) {
  const NumericRange unit{-1.0, 1.0};
  if (model.mechanism == "duchi") {
    DENIABLE_ASSIGN_OR_RETURN(auto made, CreateDuchi(unit, model.epsilon));
    return std::shared_ptr<const NumericMechanism>(std::move(made));
  }
  DENIABLE_ASSIGN_OR_RETURN(auto made, CreatePiecewise(unit, model.epsilon));
  return std::shared_ptr<const NumericMechanism>(std::move(made));
}

long long ModelBatch(const ModelDefinition& model, const NumericMechanism& mechanism) {
  if (model.batch) return *model.batch;
  // Each component gets about batch/(d + 1) reports of variance at most Var(1);
  // its mean's standard error is then at most 1/4 (on the clip scale).
  const double worst = mechanism.MeanEstimateVariance(1.0).value_or(1.0);
  const double batch = std::ceil(16.0 * model.components() * worst);
  return static_cast<long long>(std::clamp(batch, 10.0, 1e6));
}

}  // namespace deniable
