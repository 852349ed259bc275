// Shared validators with one wording, so every message reads the same:
// "epsilon must be finite and in (0, 30], but is -1".
#pragma once

#include <string>

#include "core/result.h"

namespace deniable {

// Largest per-question epsilon accepted: beyond it the mechanisms report the
// truth with probability 1 - 1e-13, which is no protection worth calling LDP.
inline constexpr double kMaxEpsilon = 30.0;

Status ValidateEpsilon(double epsilon, const std::string& name = "epsilon");
Status ValidateIntInRange(long long value, long long low, long long high, const std::string& name);
std::string FormatNumber(double value);

}  // namespace deniable
