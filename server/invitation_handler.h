// POST /api/surveys/{id}/invitations (admin): body {"count": N}, 1..10000;
// answers 201 {"codes": [...]}. The codes are shown once: only their hashes
// are stored.
#pragma once

#include "server/api_context.h"

namespace deniable::server {

ApiResult HandleCreateInvitations(ApiContext& context, const ApiRequest& request);

}  // namespace deniable::server
