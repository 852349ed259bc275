// `deniable simulate` for questions asked openly: the simulated respondents'
// answers, drawn from a distribution or read from a table's rows (shared
// with the other questions of the same CSV file, so breakdowns and
// regressions see the same person), and the comparison of the exact results
// with them: "truth" (the sample's shares or statistics), "population" (what
// the answers were drawn from) and "errors" (the intervals' coverage of their
// own target).
#pragma once

#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "core/numeric/numeric_mechanism.h"
#include "core/survey/question_kind.h"

namespace deniable {

// {"frequencies": [w per option]} or {"values": [option index, ...]} (a table's rows).
Result<std::unique_ptr<TruthSampler>> ParseOpenCategoryTruth(std::size_t options, const nlohmann::json& entry,
                                                             const std::string& where);

// A numeric truth (core/kinds/numeric/numeric_truth.h: a distribution or "values").
Result<std::unique_ptr<TruthSampler>> ParseOpenValueTruth(NumericRange range, const nlohmann::json& entry,
                                                          const std::string& where);

std::string OpenSimulationText(const nlohmann::json& result);

}  // namespace deniable
