// The query parameters of GET /api/surveys/{id}/results and results.csv: the
// estimation options, which travel as JSON (each parameter's text) to the
// kinds of question, which read and check them (core/survey/kind_registry.h:
// the numeric kind's are estimator, points, bin_width, estimation_cells,
// replicates and curvature_penalty).
// Parsing is strict: an unknown or repeated parameter, or a value of the wrong
// form, is a 400 naming the parameter. Ranges, and whether an option fits a
// question (kde_sqp is RVNS-only), are each kind's rules, checked against
// every question; a survey without questions of a kind accepts that kind's
// well-formed options and ignores them.
#pragma once

#include <variant>

#include "core/survey/survey.h"
#include "server/http/api_types.h"
#include "server/surveys/estimate_query.h"

namespace deniable::server {

std::variant<EstimateQuery, ApiError> ParseResultsQuery(const Survey& survey, const ApiRequest& request);

}  // namespace deniable::server
