// The route table: every endpoint of the HTTP API and every page, as
// (method, path pattern, handler). Patterns are anchored regular expressions;
// their capture groups become ApiRequest::path_params.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "server/api_context.h"
#include "server/static_files.h"

namespace deniable::server {

enum class HttpMethod { kGet, kPost };

using RouteHandler = std::function<ApiResult(const ApiRequest&)>;

struct Route {
  HttpMethod method;
  std::string pattern;
  RouteHandler handler;
};

// The context and pages must outlive the routes.
std::vector<Route> ApiRoutes(ApiContext& context);
std::vector<Route> PageRoutes(const StaticFiles& pages);

}  // namespace deniable::server
