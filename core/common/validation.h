// Shared validators with one wording, so every message reads the same:
// "epsilon must be finite and in [0.01, 30], but is -1".
#pragma once

#include <string>

#include "core/common/result.h"

namespace deniable {

// Largest per-question epsilon accepted: beyond it the mechanisms report the
// truth with probability 1 - 1e-13, which is no protection worth calling LDP.
inline constexpr double kMaxEpsilon = 30.0;
// Smallest epsilon accepted: below it the reports carry so little that no
// realistic survey can estimate anything (with GRR, k = 2 and n = 2000 the
// 95% interval of a share is already +-438 points at 0.01), and at extreme
// values (5e-324) the estimators' arithmetic breaks down to null counts.
inline constexpr double kMinEpsilon = 0.01;

// A numeric question's range: both ends within +-kMaxRangeMagnitude, and a
// width of at least kMinRelativeRangeWidth * max(1, |low|, |high|), so the
// range, its grid and every report are well represented as doubles.
inline constexpr double kMaxRangeMagnitude = 1e9;
inline constexpr double kMinRelativeRangeWidth = 1e-7;

Status ValidateEpsilon(double epsilon, const std::string& name = "epsilon");
Status ValidateIntInRange(long long value, long long low, long long high, const std::string& name);
std::string FormatNumber(double value);
// A number for prose, rounded to `significant` significant digits, never in
// exponent form: 490.632493729 -> "491", 5.155 -> "5.2", 0.012345 -> "0.012".
std::string FormatSignificant(double value, int significant);

}  // namespace deniable
