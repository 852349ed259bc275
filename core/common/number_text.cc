#include "core/common/number_text.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <string>

namespace deniable {
namespace {

bool StartsLikeNumber(std::string_view text, bool allow_sign) {
  if (text.empty()) return false;
  const char first = text.front();
  if (first >= '0' && first <= '9') return true;
  return allow_sign && (first == '-' || first == '+') && text.size() > 1;
}

}  // namespace

std::optional<long long> ParseInteger(std::string_view text) {
  if (!StartsLikeNumber(text, true)) return std::nullopt;
  const std::string copy(text);
  char* end = nullptr;
  errno = 0;
  const long long value = std::strtoll(copy.c_str(), &end, 10);
  if (errno != 0 || end != copy.c_str() + copy.size()) return std::nullopt;
  return value;
}

std::optional<std::uint64_t> ParseUnsigned(std::string_view text) {
  if (!StartsLikeNumber(text, false)) return std::nullopt;
  const std::string copy(text);
  char* end = nullptr;
  errno = 0;
  const unsigned long long value = std::strtoull(copy.c_str(), &end, 10);
  if (errno != 0 || end != copy.c_str() + copy.size()) return std::nullopt;
  return static_cast<std::uint64_t>(value);
}

std::optional<double> ParseFiniteNumber(std::string_view text) {
  if (text.empty()) return std::nullopt;
  const char first = text.front();
  const bool plausible = (first >= '0' && first <= '9') || first == '-' || first == '+' || first == '.';
  if (!plausible) return std::nullopt;
  const std::string copy(text);
  char* end = nullptr;
  errno = 0;
  const double value = std::strtod(copy.c_str(), &end);
  if (errno == ERANGE || end != copy.c_str() + copy.size() || !std::isfinite(value)) return std::nullopt;
  return value;
}

}  // namespace deniable
