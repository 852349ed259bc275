#include "core/common/validation.h"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace deniable {

std::string FormatNumber(double value) {
  std::ostringstream out;
  out.precision(12);
  out << value;
  return out.str();
}

std::string FormatSignificant(double value, int significant) {
  if (!std::isfinite(value) || value == 0.0) return FormatNumber(value);
  const int magnitude = static_cast<int>(std::floor(std::log10(std::fabs(value))));
  const int decimals = std::max(0, significant - 1 - magnitude);
  const double scale = std::pow(10.0, significant - 1 - magnitude);
  const double rounded = std::round(value * scale) / scale;
  // 9.96 to two digits is 10, not "10.0": rounding up may add a digit before the point.
  const bool carried = std::fabs(rounded) >= std::pow(10.0, magnitude + 1);
  const int shown = carried ? std::max(0, decimals - 1) : decimals;
  std::ostringstream out;
  out << std::fixed;
  out.precision(shown);
  out << rounded;
  return out.str();
}

Status ValidateEpsilon(double epsilon, const std::string& name) {
  if (!std::isfinite(epsilon) || epsilon < kMinEpsilon || epsilon > kMaxEpsilon) {
    return MakeError(name + " must be finite and in [" + FormatNumber(kMinEpsilon) + ", " + FormatNumber(kMaxEpsilon) +
                     "], but is " + FormatNumber(epsilon));
  }
  return OkStatus();
}

Status ValidateIntInRange(long long value, long long low, long long high, const std::string& name) {
  if (value < low || value > high) {
    return MakeError(name + " must be between " + std::to_string(low) + " and " + std::to_string(high) +
                     ", but is " + std::to_string(value));
  }
  return OkStatus();
}

}  // namespace deniable
