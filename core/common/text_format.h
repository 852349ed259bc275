// Plain-text tables for the command line's reports (`deniable simulate`):
// fixed decimals, padding, and epsilon in words.
#pragma once

#include <cstddef>
#include <string>

#include <nlohmann/json.hpp>

namespace deniable {

// A number with `decimals` decimals, or "-" for null.
std::string Fixed(const nlohmann::json& value, int decimals = 4);
std::string Padded(std::string text, std::size_t width, bool right_align);
// "1.5", or "no formal epsilon" for null.
std::string EpsilonText(const nlohmann::json& epsilon);

}  // namespace deniable
