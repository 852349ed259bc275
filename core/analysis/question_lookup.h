// Reading the questions an analysis spec names (analysis.h): each an id of
// the survey's questions, with errors that name the spec's field.
#pragma once

#include <cstddef>
#include <string>

#include <nlohmann/json.hpp>

#include "core/common/result.h"
#include "core/survey/survey.h"

namespace deniable {

// The index of the question whose id is `value`; `where` is the field ("analysis.by").
Result<std::size_t> LookUpQuestion(const Survey& survey, const nlohmann::json& value, const std::string& where);

// "\"gender\" (categorical)" for messages.
std::string DescribeQuestion(const Question& question);

}  // namespace deniable
