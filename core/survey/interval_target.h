// What a 95% interval is for. Survey researchers report the population they
// sampled from: a respondent is a random draw from it, so an estimate varies
// with the sample AND with the randomisation (Warner 1965; for binary
// randomised response Var = lambda (1 - lambda) / (n (p - q)^2), lambda the
// share reporting yes). The respondents-only interval holds the sample fixed
// and counts the randomisation's variance alone: the share among these
// respondents. The population is the default; the estimation option
// "interval": "respondents" asks for the other (per survey or per question,
// "<id>.interval"). Every kind's results state which one they give under
// "interval_for" (IntervalForJson).
#pragma once

#include <string_view>

#include <nlohmann/json.hpp>

#include "core/common/result.h"

namespace deniable {

enum class IntervalTarget { kPopulation, kRespondents };

inline constexpr const char* kIntervalOption = "interval";

// options["interval"]: absent or "population" (default), or "respondents";
// anything else is an error naming the field and the choices.
Result<IntervalTarget> ReadIntervalTarget(const nlohmann::json& options);

std::string_view IntervalTargetName(IntervalTarget target);

// {"target": "population" | "respondents", "meaning": a sentence}: what every
// interval of a question's results covers at its nominal rate.
nlohmann::json IntervalForJson(IntervalTarget target);

}  // namespace deniable
