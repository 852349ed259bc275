// Strict number parsing for command-line flags, query parameters and options given as text: the
// whole text must be the number ("12abc", "", " 1" and "0x10" are rejected).
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace deniable {

std::optional<long long> ParseInteger(std::string_view text);
std::optional<std::uint64_t> ParseUnsigned(std::string_view text);
// Finite numbers only (no "nan", "inf").
std::optional<double> ParseFiniteNumber(std::string_view text);

}  // namespace deniable
