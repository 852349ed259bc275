// The fields every question has, whatever its kind; a kind's parser accepts
// these and its own, and rejects the rest naming the field.
#pragma once

#include <initializer_list>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/common/result.h"
#include "core/numeric/numeric_mechanism.h"

namespace deniable {

// id, text, type, then the kind's own fields, then required (the order of
// the "expected one of" list).
Status RejectUnknownQuestionFields(const nlohmann::json& question, std::initializer_list<const char*> kind_fields,
                                   const std::string& where);

// The "range": [low, high] of kinds whose answers are numbers (required,
// finite, low < high), its errors naming where + ".range".
Result<NumericRange> ParseRangeField(const nlohmann::json& question, const std::string& where);

// The form two option labels are compared in: spaces trimmed and runs of them
// made one, ASCII letters lowercased ("Yes" and " yes" are one option).
// Letters outside ASCII are compared as written.
std::string OptionKey(const std::string& label);

// The "options": [label, ...] of kinds whose answers are one of a list
// (required; 2 to max_options distinct, non-empty labels of at most 500
// bytes), its errors naming where + ".options[i]".
Result<std::vector<std::string>> ParseOptionsField(const nlohmann::json& object, const std::string& where,
                                                   std::size_t max_options);

}  // namespace deniable
