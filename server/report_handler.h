// POST /api/surveys/{id}/reports: validate the report with core ParseReport,
// check the invitation code of invitation surveys, and answer 201 only once
// the report is committed to SQLite (group commit, see report_writer.h).
#pragma once

#include "server/api_context.h"

namespace deniable::server {

ApiResult HandleSubmitReport(ApiContext& context, const ApiRequest& request);

}  // namespace deniable::server
