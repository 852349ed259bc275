// GET /api/surveys/{id}/reports.csv, reports.json and codebook.json: the
// stored reports of a survey for researchers' own tools (report_export.h).
// Admin only, always, whatever the survey's results visibility: the rows
// are the reports themselves. Exports pass one at a time through their own
// gate (EstimationLimits::exports; 503 when one runs and one waits), and
// stop when the client disconnects.
//
// The body is assembled from storage a page of reports at a time (the
// storage lock is held per page, never while the body is built, so report
// intake goes on), but the connection gate (connection_gate.h) sends whole
// responses, so the finished body is held in memory while it is sent: about
// 2 bytes per 0/1 column per report (a million reports of the demo survey's
// 12 columns: 24 MB as CSV, 196 MB as JSON; the server's peak memory rose
// from 14 to 62 MB for the CSV, bench/export-scale.sh). Bodies over 192 MiB
// are refused (413 export_too_large, naming the CLI): `deniable export`
// writes the same file to disk without holding it (13 MB peak whatever N).
#pragma once

#include "server/api/api_context.h"

namespace deniable::server {

ApiResult HandleReportsCsv(ApiContext& context, const ApiRequest& request);
ApiResult HandleReportsJson(ApiContext& context, const ApiRequest& request);
ApiResult HandleCodebook(ApiContext& context, const ApiRequest& request);

}  // namespace deniable::server
