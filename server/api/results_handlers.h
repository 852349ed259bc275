// GET /api/surveys/{id}/results and results.csv. Public surveys answer
// anyone; admin-only surveys answer 403 without credentials and 401 with a
// wrong token. Estimation reads only the in-memory aggregate; the query
// parameters set how numeric questions are estimated (server/api/results_query.h)
// and documents are cached per (respondent count, options).
#pragma once

#include "server/api/api_context.h"

namespace deniable::server {

ApiResult HandleResults(ApiContext& context, const ApiRequest& request);
ApiResult HandleResultsCsv(ApiContext& context, const ApiRequest& request);

}  // namespace deniable::server
