// A linear regression trained across rounds of respondents on locally
// private gradients (seed 003, §5): model_definition.h has the format and the
// decisions, model_gradient.h the respondent's side, model_rounds.h the
// aggregate and the replay, model_results.h the document.
#pragma once

#include <memory>
#include <string>

#include "core/kinds/linear_regression/model_advice.h"
#include "core/kinds/linear_regression/model_definition.h"
#include "core/kinds/linear_regression/regression_client.h"
#include "core/kinds/linear_regression/model_truth.h"
#include "core/survey/kind_registry.h"
#include "core/survey/question_kind.h"

namespace deniable {

// The client half (the model, the gradient's mechanism, definition, privacy,
// Perturb, page summary, the link to the variables' questions) is
// RegressionClient's.
class RegressionQuestionKind final : public QuestionKind, public RegressionClient, public ReportColumns {
 public:
  static KindEntry Entry();
  static Result<std::shared_ptr<const QuestionKind>> Parse(const nlohmann::json& question, const std::string& where);

  Result<std::unique_ptr<const KindResponse>> Decode(const nlohmann::json& wire) const override;
  std::unique_ptr<KindAggregate> NewAggregate() const override;
  Status ValidateEstimateOptions(const nlohmann::json& options) const override;
  Result<nlohmann::json> Estimate(const KindAggregate& aggregate, const nlohmann::json& options,
                                  const std::function<bool()>& cancelled) const override;
  std::vector<CsvRow> CsvRows(const nlohmann::json& result) const override;
  Result<std::unique_ptr<TruthSampler>> ParseTruth(const nlohmann::json& entry, const std::string& where) const override;
  Result<nlohmann::json> TruthFromTable(const std::vector<std::vector<std::string>>& table, const nlohmann::json& entry,
                                        const std::string& where) const override {
    return ModelTruthFromTable(model_, table, entry, where);
  }
  std::string SimulationText(const nlohmann::json& result) const override;
  Result<std::shared_ptr<const QuestionKind>> Link(const EarlierQuestions& earlier,
                                                    const std::string& where) const override;
  std::optional<nlohmann::json> PublicState(const KindAggregate& aggregate) const override;
  // The reports' export: the gradient report's round, component and value.
  const ReportColumns* report_columns() const override { return this; }
  std::vector<ReportColumn> Columns() const override;
  std::vector<nlohmann::json> ColumnValues(const nlohmann::json& wire) const override;
  nlohmann::json Channel() const override;
  // How n respondents fall into rounds and chains, and the coefficients' error floor (model_advice.h).
  std::optional<nlohmann::json> DesignAdvice(std::int64_t respondents) const override {
    return ModelRoundsAdvice(model_, *mechanism_, batch_, respondents);
  }

 private:
  // Only Parse (and Link) build one, from a parsed client: an invalid kind cannot exist.
  explicit RegressionQuestionKind(const RegressionClient& client) : RegressionClient(client) {}
};

}  // namespace deniable
