// What the regressions (rr_regression.h, rr_predictor.h) share about the
// questions they read: parsing an open covariate from the spec, reading a
// respondent's value of it from a report, and one coefficient's JSON.
#pragma once

#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "core/analysis/regression_design.h"
#include "core/common/result.h"
#include "core/survey/report.h"
#include "core/survey/survey.h"

namespace deniable {

// A question a model reads, by its place in the survey's reports.
struct RegressionVariable {
  std::size_t index = 0;
  const CategoryChannel* categories = nullptr;
  const ValueChannel* values = nullptr;
};

inline std::string QuotedId(const std::string& id) { return "\"" + id + "\""; }

// spec["on"][j] (`where` names it): an open categorical or numeric question;
// `described` gets its id and levels.
Result<RegressionVariable> ParseOpenCovariate(const Survey& survey, const nlohmann::json& field,
                                              const std::string& where, RegressionCovariate& described);

// The report's response to the variable's question, null when skipped.
const KindResponse* ResponseAt(const Report& report, std::size_t index);

// An open covariate's value: the category's index or the number; nullopt
// when skipped (or not finite).
std::optional<double> ReadCovariate(const Report& report, const RegressionVariable& covariate);

// {"term", "estimate", "std_error", "ci_low", "ci_high"}: a 95% Wald interval,
// or nulls when `se` is nullopt (no honest interval).
nlohmann::json CoefficientJson(const std::string& term, double estimate, std::optional<double> se);

}  // namespace deniable
