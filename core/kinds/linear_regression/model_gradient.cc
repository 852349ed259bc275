#include "core/kinds/linear_regression/model_gradient.h"

#include <algorithm>
#include <cmath>

#include "core/common/validation.h"
#include "core/kinds/linear_regression/model_score.h"

namespace deniable {
namespace {

double NormaliseValue(double x, NumericRange range) { return std::clamp(2.0 * (x - range.low) / range.width() - 1.0, -1.0, 1.0); }

Result<double> AnswerIn(const nlohmann::json& value, NumericRange range, const std::string& what) {
  if (!value.is_number() || !std::isfinite(value.get<double>()) || value.get<double>() < range.low ||
      value.get<double>() > range.high) {
    return MakeError(what + " must be a number in [" + FormatNumber(range.low) + ", " + FormatNumber(range.high) +
                     "], but is " + value.dump());
  }
  return value.get<double>();
}

}  // namespace

Result<ModelAnswer> ParseModelAnswer(const ModelDefinition& model, const nlohmann::json& answer) {
  if (!answer.is_object()) return MakeError("must be an object {\"features\", \"target\", \"state\"}, but is " + answer.dump());
  ModelAnswer parsed;
  const auto features = answer.find("features");
  if (features == answer.end() || !features->is_array() || features->size() != model.features.size()) {
    return MakeError("features: must be an array of " + std::to_string(model.features.size()) + " numbers");
  }
  for (std::size_t i = 0; i < model.features.size(); ++i) {
    DENIABLE_ASSIGN_OR_RETURN(auto value,
                              AnswerIn((*features)[i], model.feature_ranges[i], "features[" + std::to_string(i) + "] (" + model.features[i] + ")"));
    parsed.record.features.push_back(value);
  }
  if (!answer.contains("target")) return MakeError("target: required field is missing");
  DENIABLE_ASSIGN_OR_RETURN(auto target,
                            AnswerIn(answer.at("target"), model.target_range, "target (" + model.target + ")"));
  parsed.record.target = target;
  const auto state = answer.find("state");
  if (state == answer.end() || !state->is_object()) {
    return MakeError("state: the model's current state is needed (GET /api/surveys/<id>/state)");
  }
  const auto round = state->find("round");
  if (round == state->end() || !round->is_number_integer() || round->get<long long>() < 1) {
    return MakeError("state.round: must be a round number (1, 2, ...)");
  }
  parsed.round = round->get<long long>();
  const auto complete = state->find("complete");
  if (complete != state->end() && !complete->is_boolean()) return MakeError("state.complete: must be true or false");
  parsed.complete = complete != state->end() && complete->get<bool>();
  const auto score = state->find("score");
  if (score != state->end() && !score->is_boolean()) return MakeError("state.score: must be true or false");
  parsed.score = score != state->end() && score->get<bool>();
  const auto coefficients = state->find("coefficients");
  if (coefficients == state->end() || !coefficients->is_array() ||
      coefficients->size() != static_cast<std::size_t>(model.components())) {
    return MakeError("state.coefficients: must be an array of " + std::to_string(model.components()) + " numbers");
  }
  for (const auto& value : *coefficients) {
    if (!value.is_number() || !std::isfinite(value.get<double>())) {
      return MakeError("state.coefficients: must be finite numbers, but has " + value.dump());
    }
    parsed.coefficients.push_back(value.get<double>());
  }
  return parsed;
}

std::vector<double> NormalisedFeatures(const ModelDefinition& model, const ModelRecord& record) {
  std::vector<double> features = {1.0};
  for (std::size_t i = 0; i < record.features.size(); ++i) {
    features.push_back(NormaliseValue(record.features[i], model.feature_ranges[i]));
  }
  return features;
}

double NormalisedTarget(const ModelDefinition& model, const ModelRecord& record) {
  return NormaliseValue(record.target, model.target_range);
}

std::vector<double> ClippedGradient(const ModelDefinition& model, const ModelRecord& record,
                                    const std::vector<double>& coefficients) {
  const std::vector<double> x = NormalisedFeatures(model, record);
  double residual = -NormalisedTarget(model, record);
  for (std::size_t j = 0; j < x.size(); ++j) residual += coefficients[j] * x[j];
  std::vector<double> gradient;
  for (double feature : x) gradient.push_back(std::clamp(2.0 * residual * feature, -model.clip, model.clip) / model.clip);
  return gradient;
}

Result<nlohmann::json> PerturbModelAnswer(const ModelDefinition& model, const NumericMechanism& mechanism,
                                          const ModelAnswer& answer, RandomSource& random) {
  if (answer.complete) return nlohmann::json(nullptr);  // the server takes no more gradients
  if (answer.score) {
    // The whole epsilon on the one number a held-out respondent sends.
    DENIABLE_ASSIGN_OR_RETURN(auto value,
                              mechanism.Perturb(ScoreToUnit(ClampedSquaredError(model, answer.record, answer.coefficients)), random));
    return nlohmann::json{{"round", answer.round}, {"squared_error", value[0]}};
  }
  const std::vector<double> gradient = ClippedGradient(model, answer.record, answer.coefficients);
  // The component is drawn first and independently of the answers: it reveals nothing.
  const auto component = static_cast<int>(UniformBelow(random, static_cast<std::uint64_t>(model.components())));
  DENIABLE_ASSIGN_OR_RETURN(auto value, mechanism.Perturb(gradient[static_cast<std::size_t>(component)], random));
  return nlohmann::json{{"round", answer.round}, {"component", component}, {"value", value[0]}};
}

}  // namespace deniable
