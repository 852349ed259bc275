// The HTTP server: the only code that knows cpp-httplib. It turns each
// request into an ApiRequest, calls the route's handler, and writes the
// ApiResponse with the security headers. Errors the library produces itself
// (unknown route, body too large, malformed request) get JSON bodies under
// /api, and any exception becomes a generic JSON 500 whose text never reaches
// the client.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "core/common/result.h"
#include "server/http/route.h"

namespace deniable::server {

struct HttpServerOptions {
  std::string host = "127.0.0.1";
  int port = 8080;                    // 0: an ephemeral port
  bool access_log = true;             // one short line per request on stdout
  std::size_t worker_threads = 32;    // handle whole requests; connections hold none (connection_gate.h)
  int io_timeout_seconds = 10;        // to send a whole request; to take a response
};

class HttpServer {
 public:
  HttpServer(const std::vector<Route>& routes, HttpServerOptions options);
  ~HttpServer();
  HttpServer(const HttpServer&) = delete;
  HttpServer& operator=(const HttpServer&) = delete;

  // Binds and starts listening; returns the port (the real one for port 0).
  Result<int> Bind();
  // Serves until Stop(); in-flight requests finish before it returns.
  void Serve();
  // Safe from any thread.
  void Stop();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace deniable::server
