// A route: (method, path pattern, handler). The HTTP adapter matches requests
// against a list of them; which routes exist is the api layer's business
// (server/api/routes.h). Patterns are anchored regular expressions; their
// capture groups become ApiRequest::path_params.
#pragma once

#include <functional>
#include <string>

#include "server/http/api_types.h"

namespace deniable::server {

enum class HttpMethod { kGet, kPost };

using RouteHandler = std::function<ApiResult(const ApiRequest&)>;
// A handler that answers later (reports: once committed), so that no thread
// waits for the database. It calls `respond` once, possibly before it returns.
using AsyncRouteHandler = std::function<void(const ApiRequest&, Respond respond)>;

struct Route {
  HttpMethod method;
  std::string pattern;
  RouteHandler handler;              // one of the two
  AsyncRouteHandler async_handler = nullptr;
  // Never blocks and costs microseconds: may run on the connection loop itself.
  bool runs_inline = false;
  // For an asynchronous route, the answer it gives when all goes well (a
  // report's 201): rendered while the request is at hand, and sent as it is
  // when the handler answers exactly that, with no second pass through the
  // HTTP library.
  std::function<ApiResponse()> usual_answer = nullptr;
};

}  // namespace deniable::server
