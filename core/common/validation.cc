#include "core/common/validation.h"

#include <cmath>
#include <sstream>

namespace deniable {

std::string FormatNumber(double value) {
  std::ostringstream out;
  out.precision(12);
  out << value;
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
