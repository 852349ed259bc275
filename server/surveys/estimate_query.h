// The estimation options of one results request, as the surveys layer keys
// its cache on them: each option's text, and a canonical text of every kind's
// options (defaults included), so that equal options give equal keys whatever
// the query spelled. Parsing a request into one is the api layer's
// (server/api/results_query.h).
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "core/common/result.h"
#include "core/survey/survey.h"

namespace deniable::server {

struct EstimateQuery {
  nlohmann::json options;  // parameter name -> its text
  std::string key;         // EstimateOptionsKey(options)
};

// The names a results request may use: every kind's public options and
// "interval", each also as "<question id>.<name>".
std::vector<std::string> PublicEstimateOptionNames();

// The canonical key of `options` for `survey` (nullptr: the survey-wide
// options only), or the first complaint about a value's form.
Result<std::string> EstimateOptionsKey(const Survey* survey, const nlohmann::json& options);

// The key of the default options (no parameters).
std::string DefaultEstimateOptionsKey();

}  // namespace deniable::server
