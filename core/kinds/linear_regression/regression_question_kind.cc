#include "core/kinds/linear_regression/regression_question_kind.h"

#include <cmath>

#include "core/common/validation.h"
#include "core/kinds/linear_regression/model_gradient.h"
#include "core/kinds/linear_regression/model_results.h"
#include "core/kinds/linear_regression/model_rounds.h"
#include "core/kinds/linear_regression/model_series.h"
#include "core/kinds/linear_regression/model_truth.h"

namespace deniable {

KindEntry RegressionQuestionKind::Entry() {
  return {kType, &Parse, ModelEstimateOptionNames(), &CanonicalModelEstimateOptions};
}

Result<std::shared_ptr<const QuestionKind>> RegressionQuestionKind::Parse(const nlohmann::json& question,
                                                                          const std::string& where) {
  DENIABLE_ASSIGN_OR_RETURN(auto client, RegressionClient::Parse(question, where));
  return std::shared_ptr<const QuestionKind>(
      new RegressionQuestionKind(dynamic_cast<const RegressionClient&>(*client)));
}

Result<std::shared_ptr<const QuestionKind>> RegressionQuestionKind::Link(const EarlierQuestions& earlier,
                                                                          const std::string& where) const {
  const EarlierClients clients = [&earlier](const std::string& id) -> const KindClient* { return earlier(id); };
  DENIABLE_ASSIGN_OR_RETURN(auto model, LinkedModel(clients, where));
  auto linked = std::shared_ptr<RegressionQuestionKind>(new RegressionQuestionKind(*this));
  linked->model_ = std::move(model);
  return std::shared_ptr<const QuestionKind>(std::move(linked));
}

Result<std::unique_ptr<const KindResponse>> RegressionQuestionKind::Decode(const nlohmann::json& wire) const {
  // null: the model was complete (its state said so), nothing computed or sent.
  if (wire.is_null()) return std::unique_ptr<const KindResponse>(std::make_unique<GradientResponse>(GradientResponse::NotSent()));
  if (!wire.is_object()) {
    return MakeError("a model report must be an object {\"round\", \"component\", \"value\"}, or null once the model "
                     "is complete");
  }
  const bool score = wire.contains("squared_error");  // a held-out round's report
  for (const auto& item : wire.items()) {
    const bool known = item.key() == "round" || (score ? item.key() == "squared_error"
                                                        : item.key() == "component" || item.key() == "value");
    if (!known) return MakeError("unknown field \"" + item.key() + "\" in a model report");
  }
  const auto round = wire.find("round");
  if (round == wire.end() || !round->is_number_integer() || round->get<long long>() < 1 ||
      round->get<long long>() > 1000000000LL) {
    return MakeError("round must be a round number (1, 2, ...)");
  }
  const NumericRange possible = mechanism_->possible_values();
  if (score) {
    const auto& value = wire.at("squared_error");
    if (!value.is_number() || !std::isfinite(value.get<double>()) || value.get<double>() < possible.low ||
        value.get<double>() > possible.high) {
      return MakeError("squared_error must be a number in [" + FormatNumber(possible.low) + ", " +
                       FormatNumber(possible.high) + "]");
    }
    return std::unique_ptr<const KindResponse>(
        std::make_unique<GradientResponse>(GradientResponse::Score(round->get<long long>(), value.get<double>())));
  }
  const auto component = wire.find("component");
  if (component == wire.end() || !component->is_number_integer() || component->get<long long>() < 0 ||
      component->get<long long>() >= model_.components()) {
    return MakeError("component must be an integer in [0, " + std::to_string(model_.components() - 1) + "]");
  }
  const auto value = wire.find("value");
  if (value == wire.end() || !value->is_number() || !std::isfinite(value->get<double>()) ||
      value->get<double>() < possible.low || value->get<double>() > possible.high) {
    return MakeError("value must be a number in [" + FormatNumber(possible.low) + ", " + FormatNumber(possible.high) + "]");
  }
  return std::unique_ptr<const KindResponse>(std::make_unique<GradientResponse>(
      round->get<long long>(), static_cast<int>(component->get<long long>()), value->get<double>()));
}

std::unique_ptr<KindAggregate> RegressionQuestionKind::NewAggregate() const {
  return std::make_unique<ModelAggregate>(std::make_shared<const ModelDefinition>(model_), batch_);
}

Result<nlohmann::json> RegressionQuestionKind::Estimate(const KindAggregate& aggregate, const nlohmann::json& options,
                                                        const std::function<bool()>&) const {
  DENIABLE_ASSIGN_OR_RETURN(auto target, ReadIntervalTarget(options));
  DENIABLE_ASSIGN_OR_RETURN(auto series, ReadSeriesRequest(options));
  nlohmann::json document = ModelResultToJson(model_, static_cast<const ModelAggregate&>(aggregate), target, series);
  document["mechanism"] = MechanismToJson();
  document["privacy"] = PrivacyToJson();
  return document;
}

Status RegressionQuestionKind::ValidateEstimateOptions(const nlohmann::json& options) const {
  DENIABLE_TRY(ReadSeriesRequest(options));
  return OkStatus();
}

std::vector<CsvRow> RegressionQuestionKind::CsvRows(const nlohmann::json& result) const { return ModelCsvRows(result); }

Result<std::unique_ptr<TruthSampler>> RegressionQuestionKind::ParseTruth(const nlohmann::json& entry,
                                                                         const std::string& where) const {
  return ParseModelTruth(model_, entry, where);
}

std::string RegressionQuestionKind::SimulationText(const nlohmann::json& result) const {
  return ModelSimulationText(result);
}

std::optional<nlohmann::json> RegressionQuestionKind::PublicState(const KindAggregate& aggregate) const {
  const auto& model = static_cast<const ModelAggregate&>(aggregate);
  const long long round = model.CurrentRound();
  const auto in_round = model.rounds().count(round) ? model.rounds().at(round).reports : 0;
  nlohmann::json state = {{"round", round},
                          {"coefficients", model.CurrentCoefficients()},
                          {"batch", batch_},
                          {"reports_in_round", in_round},
                          {"rounds_completed", round - 1}};
  // Said only once true (the state of a training model is unchanged): the
  // client then sends null for the model, which the server admits.
  if (model.Complete()) {
    state["complete"] = true;
  } else if (model_.Scores(round)) {
    state["score"] = true;  // a held-out round: the coefficients are the final ones, to be scored
  }
  return state;
}

}  // namespace deniable
