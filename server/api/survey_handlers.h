// Handlers for the survey endpoints: health, list, create, get.
#pragma once

#include "server/api/api_context.h"

namespace deniable::server {

ApiResult HandleHealth(const ApiRequest& request);
ApiResult HandleListSurveys(ApiContext& context, const ApiRequest& request);    // admin
ApiResult HandleCreateSurvey(ApiContext& context, const ApiRequest& request);   // admin
ApiResult HandleGetSurvey(ApiContext& context, const ApiRequest& request);      // public
ApiResult HandleGetPublicState(ApiContext& context, const ApiRequest& request);  // public

}  // namespace deniable::server
