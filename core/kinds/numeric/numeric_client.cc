#include "core/kinds/numeric/numeric_client.h"

#include "core/common/json_fields.h"
#include "core/common/validation.h"
#include "core/kinds/open/open_numeric_client.h"
#include "core/kinds/open/open_privacy.h"
#include "core/numeric/numeric_mechanism_factory.h"
#include "core/survey/question_fields.h"

namespace deniable {

KindClientEntry NumericClient::Entry() { return {kType, &Parse}; }

Result<std::shared_ptr<const KindClient>> NumericClient::Parse(const nlohmann::json& object,
                                                               const std::string& where) {
  DENIABLE_TRY(RejectUnknownQuestionFields(object, {"range", "unit", "step", "mechanism", "privacy"}, where));
  DENIABLE_ASSIGN_OR_RETURN(auto open, IsOpenQuestion(object, where));
  if (!open && object.contains("privacy") && object.at("privacy") != "local") {
    return MakeError(where + ".privacy: a numeric question is \"local\" (randomised on the device) or \"open\" (asked "
                             "openly, sent as given), but is " + object.at("privacy").dump());
  }
  DENIABLE_ASSIGN_OR_RETURN(auto range, ParseRangeField(object, where));
  DENIABLE_ASSIGN_OR_RETURN(auto unit, ReadString(object, "unit", 32, false, where));
  DENIABLE_ASSIGN_OR_RETURN(auto step, AnswerStep::Parse(object, range, where));
  if (open) return OpenNumericClient::Create(range, std::move(unit), step);
  if (!object.contains("mechanism")) return MakeError(where + ".mechanism: required field is missing");
  DENIABLE_ASSIGN_OR_RETURN(auto mechanism,
                            ParseNumericMechanism(object.at("mechanism"), range, where + ".mechanism"));
  return std::shared_ptr<const KindClient>(new NumericClient(range, std::move(unit), step, std::move(mechanism)));
}

nlohmann::json NumericClient::DefinitionToJson() const {
  nlohmann::json object = {{"type", kType}, {"range", {range_.low, range_.high}}, {"mechanism", MechanismToJson()}};
  if (!unit_.empty()) object["unit"] = unit_;
  if (step_) object["step"] = step_->step();
  return object;
}

nlohmann::json NumericClient::PrivacyToJson() const { return NumericPrivacyToJson(*mechanism_); }

Result<nlohmann::json> NumericClient::Perturb(const nlohmann::json& answer, RandomSource& random) const {
  if (!answer.is_number()) return MakeError("must be a number, but is " + answer.dump());
  if (step_ && !step_->OnGrid(answer.get<double>())) {
    return MakeError("must be " + FormatNumber(range_.low) + " plus a whole number of steps of " +
                     FormatNumber(step_->step()) + ", but is " + answer.dump());
  }
  DENIABLE_ASSIGN_OR_RETURN(auto values, mechanism_->Perturb(answer.get<double>(), random));
  return nlohmann::json(values);
}

nlohmann::json NumericClient::PageSummary() const {
  return {{"values_per_report", mechanism_->values_per_report()}};
}

}  // namespace deniable
