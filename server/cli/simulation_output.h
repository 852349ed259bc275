// What `deniable simulate` adds to and prints from core's Simulate document.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "core/survey/survey.h"

namespace deniable::server {

// The human-readable report: per question its header, its kind's text
// (QuestionKind::SimulationText: the mechanism, epsilon, n, estimates against
// the truth, errors, advice) and its warning; then the total epsilon.
std::string FormatSimulationText(const Survey& survey, const nlohmann::json& document);

}  // namespace deniable::server
