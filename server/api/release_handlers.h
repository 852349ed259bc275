// The releases of questions answered in confidence (core/central/):
//   POST /api/surveys/{id}/questions/{qid}/releases   (admin) make a release: {"method", "epsilon", ...}, or
//        with "at_respondents": N schedule it for when the question has N answers (its epsilon reserved)
//   POST /api/surveys/{id}/questions/{qid}/releases/{sid}/cancel   (admin) cancel a scheduled release
//   GET  /api/surveys/{id}/questions/{qid}/releases   the question's ledger and releases, for whoever may
//        read the survey's results; ?postprocess=clamp,round,consistent adds each release's post-processed values
//   GET  /api/surveys/{id}/questions/{qid}/counts     (admin) the exact counts, only when the definition says
//        "admin_sees_counts": true
#pragma once

#include "server/api/api_context.h"

namespace deniable::server {

ApiResult HandleCreateRelease(ApiContext& context, const ApiRequest& request);
ApiResult HandleGetLedger(ApiContext& context, const ApiRequest& request);
ApiResult HandleExactCounts(ApiContext& context, const ApiRequest& request);
ApiResult HandleCancelScheduledRelease(ApiContext& context, const ApiRequest& request);

// Makes the survey's scheduled releases whose count is reached (after a
// stored report, and at start); failures are logged, and retried at the next
// report or start.
void RunDueReleases(Storage& storage, SurveyEntry& entry);

}  // namespace deniable::server
