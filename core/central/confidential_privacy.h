// The trust fields of a question that may be answered in confidence
// (categorical and histogram questions): "privacy": "local" (the default: the
// answer is randomised on the device) or "central" with "budget" (the total
// epsilon its releases may spend, required) and "admin_sees_counts" (whether
// the admin may read the exact counts; default false).
#pragma once

#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "core/common/result.h"

namespace deniable {

struct ConfidentialPrivacy {
  double budget = 1.0;
  bool admin_sees_counts = false;
};

// nullopt for a local question; errors name the field ("questions[2].budget: ...").
Result<std::optional<ConfidentialPrivacy>> ParseTrustFields(const nlohmann::json& question, const std::string& where);

// The fields of a central question's canonical definition.
nlohmann::json TrustFieldsToJson(const ConfidentialPrivacy& privacy);

}  // namespace deniable
