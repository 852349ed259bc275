#include "core/common/text_format.h"

#include <cstdio>

#include "core/common/validation.h"

namespace deniable {

using nlohmann::json;

std::string Fixed(const json& value, int decimals) {
  if (!value.is_number()) return "-";
  char text[64];
  std::snprintf(text, sizeof(text), "%.*f", decimals, value.get<double>());
  return text;
}

std::string Padded(std::string text, std::size_t width, bool right_align) {
  if (text.size() >= width) return text;
  const std::string padding(width - text.size(), ' ');
  return right_align ? padding + text : text + padding;
}

std::string EpsilonText(const json& epsilon) {
  return epsilon.is_number() ? FormatNumber(epsilon.get<double>()) : "no formal epsilon";
}

}  // namespace deniable
