// GET /api/advice?options=K&epsilon=E&respondents=N: core Advise as JSON
// (core AdviceToJson). Each parameter is required; a bad one is a 400 naming it.
#pragma once

#include "server/api_types.h"

namespace deniable::server {

ApiResult HandleAdvice(const ApiRequest& request);

}  // namespace deniable::server
