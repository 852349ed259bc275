// Builds any numeric mechanism from its survey-definition object, by name:
// {"name": "rvns" | "laplace" | "duchi" | "piecewise" | "hybrid" | "square_wave", ...}.
#pragma once

#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "core/numeric/numeric_mechanism.h"
#include "core/common/result.h"

namespace deniable {

Result<std::shared_ptr<const NumericMechanism>> ParseNumericMechanism(const nlohmann::json& object,
                                                                      NumericRange range, const std::string& where);

// JSON describing a numeric question's privacy for display (as PrivacyToJson for categorical).
nlohmann::json NumericPrivacyToJson(const NumericMechanism& mechanism);

}  // namespace deniable
