// The client half of a numeric question asked openly (open_numeric_kind.h):
// the number is checked against the range (and step) and sent as given.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "core/kinds/numeric/answer_step.h"
#include "core/survey/kind_client.h"

namespace deniable {

class OpenNumericClient : public virtual KindClient {
 public:
  static std::shared_ptr<const KindClient> Create(NumericRange range, std::string unit, std::optional<AnswerStep> step);

  std::string_view type() const override { return "numeric"; }
  nlohmann::json DefinitionToJson() const override;
  nlohmann::json MechanismToJson() const override { return {{"name", "open"}}; }
  std::optional<double> epsilon() const override { return std::nullopt; }
  nlohmann::json PrivacyToJson() const override;
  Trust trust() const override { return Trust::kOpen; }
  Result<nlohmann::json> Perturb(const nlohmann::json& answer, RandomSource& random) const override;
  nlohmann::json PageSummary() const override { return {{"values_per_report", 1}}; }
  std::optional<NumericAnswers> numeric_answers() const override { return NumericAnswers{range_}; }

 protected:
  OpenNumericClient(NumericRange range, std::string unit, std::optional<AnswerStep> step)
      : range_(range), unit_(std::move(unit)), step_(step) {}
  // The answer as a number in the range (on the step's grid): what Perturb
  // sends and what the server decodes.
  Result<double> ReadAnswer(const nlohmann::json& answer) const;

  NumericRange range_;
  std::string unit_;
  std::optional<AnswerStep> step_;
};

}  // namespace deniable
