#include "core/numeric/epsilon_mechanism.h"

#include "core/common/json_fields.h"
#include "core/common/validation.h"

namespace deniable {

Status ValidateEpsilonMechanismInputs(NumericRange range, double epsilon) {
  DENIABLE_TRY(ValidateNumericRange(range));
  return ValidateEpsilon(epsilon);
}

Result<double> ReadEpsilonOnlyParams(const nlohmann::json& object, const std::string& expected_name,
                                     const std::string& where) {
  DENIABLE_TRY(RequireObject(object, where));
  DENIABLE_TRY(RejectUnknownFields(object, {"name", "epsilon"}, where));
  DENIABLE_ASSIGN_OR_RETURN(auto name, ReadString(object, "name", 32, true, where));
  if (name != expected_name) {
    return MakeError(JoinPath(where, "name") + ": must be \"" + expected_name + "\", but is \"" + name + "\"");
  }
  auto epsilon = ReadFiniteNumber(object, "epsilon", where);
  if (!epsilon) return epsilon;
  // Checked here too, so the message names the field (the factory checks again).
  if (auto status = ValidateEpsilon(*epsilon); !status) return InContext(JoinPath(where, "epsilon"), status.error());
  return epsilon;
}

}  // namespace deniable
