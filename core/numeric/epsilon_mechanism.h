// Creation and strict parsing shared by the numeric mechanisms whose only
// parameter is epsilon (Laplace, Duchi, Piecewise, Hybrid), so each one's
// factory is a line and the validation rules are written once.
#pragma once

#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "core/numeric/numeric_mechanism.h"
#include "core/common/result.h"

namespace deniable {

// Validates range and epsilon, builds with `make(range, epsilon)` (which may
// call a private constructor from the mechanism's friend factory), and checks
// the output range is finite.
template <typename Mechanism, typename Make>
Result<std::unique_ptr<const Mechanism>> CreateEpsilonMechanism(NumericRange range, double epsilon, Make make);

// Reads {"name": <expected_name>, "epsilon": e} strictly (unknown fields rejected).
Result<double> ReadEpsilonOnlyParams(const nlohmann::json& object, const std::string& expected_name,
                                     const std::string& where);

// ReadEpsilonOnlyParams then `create(range, epsilon)`, errors prefixed with `where`.
template <typename Mechanism, typename Create>
Result<std::unique_ptr<const Mechanism>> ParseEpsilonMechanism(const nlohmann::json& object, NumericRange range,
                                                               const std::string& where, const std::string& name,
                                                               Create create) {
  DENIABLE_ASSIGN_OR_RETURN(auto epsilon, ReadEpsilonOnlyParams(object, name, where));
  auto mechanism = create(range, epsilon);
  if (!mechanism) return InContext(where, mechanism.error());
  return mechanism;
}

Status ValidateEpsilonMechanismInputs(NumericRange range, double epsilon);

template <typename Mechanism, typename Make>
Result<std::unique_ptr<const Mechanism>> CreateEpsilonMechanism(NumericRange range, double epsilon, Make make) {
  DENIABLE_TRY(ValidateEpsilonMechanismInputs(range, epsilon));
  std::unique_ptr<const Mechanism> mechanism(make(range, epsilon));
  DENIABLE_TRY(RequireFiniteOutputRange(*mechanism));
  return mechanism;
}

}  // namespace deniable
