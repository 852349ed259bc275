// GET /api/advice?options=K&epsilon=E&respondents=N: core Advise as JSON
// (core AdviceToJson). Each parameter is required; a bad one is a 400 naming it.
#pragma once

#include "server/api/api_context.h"
#include "server/http/api_types.h"

namespace deniable::server {

ApiResult HandleAdvice(const ApiRequest& request);

// POST /api/advice {"survey": definition, "question": id, "respondents": n}
// (admin): the question's design advice (core QuestionKind::DesignAdvice, as
// the creation page's WebAssembly designAdviceJson gives it) as
// {"question": id, "advice": document or null (a kind without advice)}.
// Admin only: some kinds' advice simulates (the central release advisor).
ApiResult HandleDesignAdvice(ApiContext& context, const ApiRequest& request);

}  // namespace deniable::server
