// The client half of a numeric question (numeric_question_kind.h): the range
// [a, b] (with its unit and optional step) and the numeric mechanism that
// perturbs an answer into the report's values. Its parser also builds the
// open variant (open_numeric_client.h).
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "core/kinds/numeric/answer_step.h"
#include "core/numeric/numeric_mechanism.h"
#include "core/survey/kind_client.h"
#include "core/survey/kind_registry.h"

namespace deniable {

class NumericClient : public virtual KindClient {
 public:
  static constexpr const char* kType = "numeric";
  static KindClientEntry Entry();
  // A numeric question's client: this class or OpenNumericClient.
  static Result<std::shared_ptr<const KindClient>> Parse(const nlohmann::json& question, const std::string& where);

  NumericRange range() const { return range_; }
  const std::string& unit() const { return unit_; }
  // The answers' grid when the definition declares a step (answer_step.h).
  const std::optional<AnswerStep>& answer_step() const { return step_; }
  const NumericMechanism& mechanism() const { return *mechanism_; }

  std::string_view type() const override { return kType; }
  nlohmann::json DefinitionToJson() const override;
  nlohmann::json MechanismToJson() const override { return mechanism_->ParamsToJson(); }
  std::optional<double> epsilon() const override { return mechanism_->epsilon(); }
  nlohmann::json PrivacyToJson() const override;
  Result<nlohmann::json> Perturb(const nlohmann::json& answer, RandomSource& random) const override;
  nlohmann::json PageSummary() const override;
  std::optional<NumericAnswers> numeric_answers() const override { return NumericAnswers{range_}; }

 protected:
  // Only Parse builds one: an invalid kind cannot exist.
  NumericClient(NumericRange range, std::string unit, std::optional<AnswerStep> step,
                std::shared_ptr<const NumericMechanism> mechanism)
      : range_(range), unit_(std::move(unit)), step_(step), mechanism_(std::move(mechanism)) {}

  NumericRange range_;
  std::string unit_;
  std::optional<AnswerStep> step_;
  std::shared_ptr<const NumericMechanism> mechanism_;
};

}  // namespace deniable
