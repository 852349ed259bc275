// GET /api/surveys/{id}/analysis: an analysis across questions of the stored
// reports (core/analysis/analysis.h), readable by whoever may read the
// survey's results. The query names it:
//   ?by=<open categorical question>&question=<question>     a breakdown by group
//   ?cross=<q1>,<q2>[,<q3>]                                 a cross-tabulation
//   ?regress=<randomised categorical question>&on=<q>,<q>   a regression
// with optionally interval=population|respondents. Parsing is strict (an
// unknown or repeated parameter is a 400 naming it); the analysis's own
// checks (which questions fit) are core's, as a 400 `invalid_analysis`.
#pragma once

#include "server/api/api_context.h"

namespace deniable::server {

ApiResult HandleAnalysis(ApiContext& context, const ApiRequest& request);
// The same analysis as tidy CSV (server/surveys/csv_export.h AnalysisToCsv).
ApiResult HandleAnalysisCsv(ApiContext& context, const ApiRequest& request);

}  // namespace deniable::server
