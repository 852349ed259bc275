// Managing a survey after it is published:
//   GET  /api/surveys/{id}/status          whether it accepts answers (public: the survey page asks first)
//   POST /api/surveys/{id}/status          (admin) {"status": "open" | "closed", "closes_at": "2026-12-01T00:00:00Z" | null}
//   POST /api/surveys/{id}/delete          (admin) {"confirm": "<the survey's id>"}: the survey, its reports,
//        invitation codes and releases are deleted for good; the id is never reused
//   POST /api/surveys/{id}/corrections     (admin) the survey's definition with corrected wording: recorded
//        and served at once, without a new version (core/survey/text_correction.h)
//   GET  /api/surveys/{id}/corrections     the corrections made: {"survey", "corrections": [{"made_at", "changes"}]}
//   POST /api/surveys/{id}/invitations/check   whether the X-Invitation-Code is valid and unused, spending nothing
#pragma once

#include "server/api/api_context.h"

namespace deniable::server {

ApiResult HandleGetStatus(ApiContext& context, const ApiRequest& request);
ApiResult HandleSetStatus(ApiContext& context, const ApiRequest& request);
ApiResult HandleDeleteSurvey(ApiContext& context, const ApiRequest& request);
ApiResult HandleCorrectWording(ApiContext& context, const ApiRequest& request);
ApiResult HandleGetCorrections(ApiContext& context, const ApiRequest& request);

// {"status": "open" | "closed", "closes_at", "accepting", "message"?} at this moment.
nlohmann::json StatusJson(const SurveyEntry& entry);

}  // namespace deniable::server
