#include "core/common/validation.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace deniable {

namespace {

// printf into a string. Not an ostringstream, which prints the same ("%.12g"
// is what `out.precision(12); out << value` does, "%.*f" what std::fixed
// does) but links iostreams and locales into the respondent's WebAssembly
// module (about 50 kB).
template <typename... Args>
std::string Printed(const char* format, Args... args) {
  char buffer[512];
  const int length = std::snprintf(buffer, sizeof buffer, format, args...);
  if (length >= 0 && static_cast<std::size_t>(length) < sizeof buffer) return std::string(buffer, length);
  std::string text(static_cast<std::size_t>(std::max(length, 0)) + 1, '\0');
  std::snprintf(text.data(), text.size(), format, args...);
  text.resize(text.size() - 1);
  return text;
}

}  // namespace

std::string FormatNumber(double value) { return Printed("%.12g", value); }

std::string FormatSignificant(double value, int significant) {
  if (!std::isfinite(value) || value == 0.0) return FormatNumber(value);
  const int magnitude = static_cast<int>(std::floor(std::log10(std::fabs(value))));
  const int decimals = std::max(0, significant - 1 - magnitude);
  const double scale = std::pow(10.0, significant - 1 - magnitude);
  const double rounded = std::round(value * scale) / scale;
  // 9.96 to two digits is 10, not "10.0": rounding up may add a digit before the point.
  const bool carried = std::fabs(rounded) >= std::pow(10.0, magnitude + 1);
  const int shown = carried ? std::max(0, decimals - 1) : decimals;
  return Printed("%.*f", shown, rounded);
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
