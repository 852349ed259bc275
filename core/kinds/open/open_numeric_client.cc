#include "core/kinds/open/open_numeric_client.h"

#include <cmath>

#include "core/common/validation.h"
#include "core/kinds/open/open_privacy.h"

namespace deniable {

std::shared_ptr<const KindClient> OpenNumericClient::Create(NumericRange range, std::string unit,
                                                            std::optional<AnswerStep> step) {
  return std::shared_ptr<const KindClient>(new OpenNumericClient(range, std::move(unit), step));
}

nlohmann::json OpenNumericClient::DefinitionToJson() const {
  nlohmann::json object = {{"type", "numeric"}, {"range", {range_.low, range_.high}}, {"privacy", kOpenPrivacy}};
  if (!unit_.empty()) object["unit"] = unit_;
  if (step_) object["step"] = step_->step();
  return object;
}

nlohmann::json OpenNumericClient::PrivacyToJson() const { return OpenPrivacyToJson(); }

Result<double> OpenNumericClient::ReadAnswer(const nlohmann::json& answer) const {
  if (!answer.is_number() || !std::isfinite(answer.get<double>())) {
    return MakeError("must be a number, but is " + answer.dump());
  }
  const double value = answer.get<double>();
  if (value < range_.low || value > range_.high) {
    return MakeError("must be between " + FormatNumber(range_.low) + " and " + FormatNumber(range_.high) +
                     ", but is " + answer.dump());
  }
  if (step_ && !step_->OnGrid(value)) {
    return MakeError("must be " + FormatNumber(range_.low) + " plus a whole number of steps of " +
                     FormatNumber(step_->step()) + ", but is " + answer.dump());
  }
  return value;
}

Result<nlohmann::json> OpenNumericClient::Perturb(const nlohmann::json& answer, RandomSource& /*random*/) const {
  DENIABLE_TRY(ReadAnswer(answer));
  return answer;  // asked openly: sent as given
}

}  // namespace deniable
