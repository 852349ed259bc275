// What `deniable simulate` adds to and prints from core's Simulate document.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace deniable::server {

// Adds "advice" to each question: core Advise for its k, epsilon and n
// (core AdviceToJson), or null when the question has no formal epsilon
// (the advisor compares mechanisms at a given epsilon).
void AddAdvice(nlohmann::json& document);

// The human-readable report: per question the mechanism, epsilon, n, a table
// of truth / estimate / 95% CI / consistent estimate per option, the errors,
// and the advisor's recommendation; then the total epsilon.
std::string FormatSimulationText(const nlohmann::json& document);

}  // namespace deniable::server
