// The route table: every endpoint of the HTTP API and every page, as
// (method, path pattern, handler) (server/http/route.h).
#pragma once

#include <vector>

#include "server/api/api_context.h"
#include "server/http/route.h"
#include "server/http/static_files.h"

namespace deniable::server {

// The context and pages must outlive the routes.
std::vector<Route> ApiRoutes(ApiContext& context);
std::vector<Route> PageRoutes(const StaticFiles& pages);

}  // namespace deniable::server
