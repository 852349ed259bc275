// The fields every question has, whatever its kind; a kind's parser accepts
// these and its own, and rejects the rest naming the field.
#pragma once

#include <initializer_list>
#include <string>

#include <nlohmann/json.hpp>

#include "core/common/result.h"

namespace deniable {

// id, text, type, then the kind's own fields, then required (the order of
// the "expected one of" list).
Status RejectUnknownQuestionFields(const nlohmann::json& question, std::initializer_list<const char*> kind_fields,
                                   const std::string& where);

}  // namespace deniable
