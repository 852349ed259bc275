#include "server/http_adapter.h"

#include <httplib.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <exception>
#include <iostream>

#include "server/api_types.h"
#include "server/json_limits.h"
#include "server/security_headers.h"

namespace deniable::server {
namespace {

bool IsApiPath(const std::string& path) { return path == "/api" || path.rfind("/api/", 0) == 0; }

std::string Lowercase(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return text;
}

ApiRequest ToApiRequest(const httplib::Request& req) {
  ApiRequest request;
  request.method = req.method;
  request.path = req.path;
  for (std::size_t i = 1; i < req.matches.size(); ++i) request.path_params.push_back(req.matches[i].str());
  for (const auto& param : req.params) {
    const bool first = request.query.emplace(param.first, param.second).second;  // keeps the first
    if (!first) request.repeated_query.push_back(param.first);
  }
  for (const auto& header : req.headers) request.headers.emplace(Lowercase(header.first), header.second);
  request.body = req.body;
  return request;
}

void WriteResponse(const ApiResponse& response, const httplib::Request& req, httplib::Response& res) {
  res.status = response.status;
  for (const auto& header : response.headers) res.set_header(header.first, header.second);
  if (IsApiPath(req.path)) res.set_header("Cache-Control", kApiCacheControl);
  res.set_content(response.body, response.content_type);
}

ApiError LibraryError(const httplib::Request& req, int status) {
  switch (status) {
    case 404:
      return {404, "not_found", "no API endpoint " + req.method + " " + req.path};
    case 413:
      return {413, "payload_too_large",
              "request body: larger than the limit of " + std::to_string(kMaxBodyBytes) + " bytes (1 MiB)"};
    case 400:
      return {400, "bad_request", "malformed HTTP request"};
    default:
      return {status, "http_error", "HTTP error " + std::to_string(status)};
  }
}

// Bodies for the responses the library makes itself; handler responses
// already have one and are left alone.
httplib::Server::HandlerResponse HandleLibraryError(const httplib::Request& req, httplib::Response& res) {
  if (!res.body.empty()) return httplib::Server::HandlerResponse::Unhandled;
  if (IsApiPath(req.path)) {
    WriteResponse(ErrorResponse(LibraryError(req, res.status)), req, res);
  } else {
    const int status = res.status;
    const std::string text = status == 404 ? "404 not found\n" : "HTTP error " + std::to_string(status) + "\n";
    WriteResponse(ApiResponse{status, "text/plain; charset=utf-8", text, {}}, req, res);
  }
  return httplib::Server::HandlerResponse::Handled;
}

void HandleException(const httplib::Request& req, httplib::Response& res, std::exception_ptr exception) {
  try {
    if (exception) std::rethrow_exception(exception);
  } catch (const std::exception& error) {
    std::cerr << "error: " << req.method << " " << req.path << ": unexpected exception: " << error.what() << std::endl;
  } catch (...) {
    std::cerr << "error: " << req.method << " " << req.path << ": unexpected non-standard exception" << std::endl;
  }
  WriteResponse(ErrorResponse({500, "internal", "internal server error"}), req, res);
}

// Printable, bounded, no query string: the log never holds report contents or codes.
std::string LoggablePath(const std::string& path) {
  std::string text = path.substr(0, 200);
  for (char& c : text) {
    if (static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) >= 0x7f) c = '?';
  }
  return text;
}

void LogRequest(const httplib::Request& req, const httplib::Response& res) {
  std::printf("%s %s %d\n", req.method.c_str(), LoggablePath(req.path).c_str(), res.status);
}

}  // namespace

struct HttpServer::Impl {
  httplib::Server server;
  HttpServerOptions options;
  std::atomic<bool> stop_requested{false};
};

namespace {

void RegisterRoutes(httplib::Server& server, const std::vector<Route>& routes) {
  for (const auto& route : routes) {
    auto handler = [handler = route.handler](const httplib::Request& req, httplib::Response& res) {
      WriteResponse(ToResponse(handler(ToApiRequest(req))), req, res);
    };
    if (route.method == HttpMethod::kGet) server.Get(route.pattern, handler);
    if (route.method == HttpMethod::kPost) server.Post(route.pattern, handler);
  }
}

void InstallHandlers(httplib::Server& server, bool access_log) {
  httplib::Headers security_headers;
  for (const auto& header : kSecurityHeaders) security_headers.emplace(header.first, header.second);
  server.set_default_headers(security_headers);
  server.set_error_handler(httplib::Server::HandlerWithResponse(HandleLibraryError));
  server.set_exception_handler(HandleException);
  if (access_log) server.set_logger(LogRequest);
}

void ConfigureConnections(httplib::Server& server, const HttpServerOptions& options) {
  const std::size_t threads = options.worker_threads;
  server.new_task_queue = [threads] { return new httplib::ThreadPool(threads); };
  server.set_payload_max_length(kMaxBodyBytes);
  server.set_read_timeout(options.io_timeout_seconds, 0);
  server.set_write_timeout(options.io_timeout_seconds, 0);
  // httplib lets idle keep-alive connections finish their timeout before a
  // stop completes: a short timeout keeps SIGTERM prompt.
  server.set_keep_alive_timeout(2);
  server.set_keep_alive_max_count(1000);
  server.set_tcp_nodelay(true);
}

}  // namespace

HttpServer::HttpServer(const std::vector<Route>& routes, HttpServerOptions options) : impl_(new Impl) {
  impl_->options = std::move(options);
  RegisterRoutes(impl_->server, routes);
  InstallHandlers(impl_->server, impl_->options.access_log);
  ConfigureConnections(impl_->server, impl_->options);
}

HttpServer::~HttpServer() = default;

Result<int> HttpServer::Bind() {
  const auto& options = impl_->options;
  const std::string where = options.host + ":" + std::to_string(options.port);
  if (options.port == 0) {
    const int port = impl_->server.bind_to_any_port(options.host);
    if (port <= 0) return MakeError("cannot listen on " + where + ": the address cannot be bound");
    return port;
  }
  if (!impl_->server.bind_to_port(options.host, options.port)) {
    return MakeError("cannot listen on " + where + ": the port is in use or the address cannot be bound");
  }
  return options.port;
}

void HttpServer::Serve() {
  if (impl_->stop_requested) return;
  impl_->server.listen_after_bind();
}

void HttpServer::Stop() {
  impl_->stop_requested = true;
  impl_->server.stop();
}

}  // namespace deniable::server
