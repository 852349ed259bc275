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

#include <string>
#include <variant>

#include <nlohmann/json.hpp>

#include "core/survey/survey.h"
#include "server/api_types.h"

namespace deniable::server {

struct EstimateQuery {
  nlohmann::json options;  // parameter name -> its text
  // A canonical text of the options (every kind's, defaults included), so
  // equal options give equal cache keys whatever the query spelled.
  std::string key;
};

std::variant<EstimateQuery, ApiError> ParseResultsQuery(const Survey& survey, const ApiRequest& request);

// The key of the default options (no parameters).
std::string DefaultEstimateOptionsKey();

}  // namespace deniable::server
