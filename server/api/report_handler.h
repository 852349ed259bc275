// POST /api/surveys/{id}/reports: validate the report with core ParseReport,
// check the invitation code of invitation surveys, and answer 201 only once
// the report is committed to SQLite (group commit, see report_writer.h). It
// answers through `respond` when the commit is done: no thread waits for it.
#pragma once

#include "server/api/api_context.h"

namespace deniable::server {

void HandleSubmitReport(ApiContext& context, const ApiRequest& request, Respond respond);

// 201 {"accepted":true}: the answer to a committed report.
ApiResponse ReportAccepted();

}  // namespace deniable::server
