// The query parameters of GET /api/surveys/{id}/results and results.csv:
// how numeric questions are estimated (core NumericEstimateOptions).
//   estimator=ems|em|kde_sqp  points=2..1000  bin_width=>0
//   estimation_cells=2..1000  replicates=2..1000
// Parsing is strict: an unknown or repeated parameter, or a value that is not
// the whole number, is a 400 naming the parameter. Ranges, and whether an
// option fits a question (kde_sqp is RVNS-only), are core's rules
// (ValidateNumericEstimateOptions), checked against every numeric question; a
// survey without numeric questions accepts well-formed options and ignores
// them.
#pragma once

#include <string>
#include <variant>

#include "core/numeric_results.h"
#include "core/survey.h"
#include "server/api_types.h"

namespace deniable::server {

std::variant<NumericEstimateOptions, ApiError> ParseResultsQuery(const Survey& survey, const ApiRequest& request);

// A canonical text of the options (every field, defaults included), so equal
// options give equal cache keys whatever the query spelled.
std::string NumericOptionsKey(const NumericEstimateOptions& options);

}  // namespace deniable::server
