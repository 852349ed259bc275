#include "server/http/http_adapter.h"

#include <httplib.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <exception>
#include <iostream>
#include <mutex>
#include <optional>
#include <regex>
#include <stdexcept>
#include <unordered_map>

#include "server/http/api_types.h"
#include "server/http/connection_gate.h"
#include "server/http/json_limits.h"
#include "server/http/plain_request.h"
#include "server/http/security_headers.h"
#include "server/http/wire_errors.h"

namespace deniable::server {
namespace {

// The gate's request this thread is handling, and whether its handler
// deferred the answer: the library hands handlers only its own Request,
// which has no room for either.
thread_local const GateRequest* current_request = nullptr;
thread_local bool answer_deferred = false;
struct DirectRoute;
thread_local DirectRoute* deferred_direct = nullptr;  // the direct route whose usual answer was just deferred

bool IsApiPath(const std::string& path) { return path == "/api" || path.rfind("/api/", 0) == 0; }

std::string LowercaseHeaderName(std::string text) {
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
  for (const auto& header : req.headers) {
    std::string name = LowercaseHeaderName(header.first);
    if (name == "accept-encoding") continue;  // the gate renamed the client's own (request_framing.h)
    if (name == LowercaseHeaderName(kForwardedAcceptEncoding)) name = "accept-encoding";
    // Proxies may add their hop as a header line of its own: the lines are one list, in order (RFC 9110 5.3),
    // so its last hop is the last proxy's (trusted_proxies.h).
    if (name == "x-forwarded-for" && request.headers.count(name)) {
      request.headers[name] += ", " + header.second;
      continue;
    }
    request.headers.emplace(std::move(name), header.second);
  }
  request.body = req.body;
  request.remote_address = req.remote_addr;
  if (current_request) request.client_gone = current_request->client_gone;
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
      return ApiErrorFor(WireCode::kNotFound, "no API endpoint " + req.method + " " + req.path);
    case 413:
      return ApiErrorFor(WireCode::kPayloadTooLarge,
                         "request body: larger than the limit of " + std::to_string(kMaxBodyBytes) + " bytes (1 MiB)");
    case 400:
      return ApiErrorFor(WireCode::kBadRequest, "malformed HTTP request");
    default: {
      // An error the library answers itself with no code of its own keeps its status.
      ApiError error = ApiErrorFor(WireCode::kHttpError, "HTTP error " + std::to_string(status));
      error.status = status;
      return error;
    }
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
  WriteResponse(ErrorResponse(ApiErrorFor(WireCode::kInternal, "internal server error")), req, res);
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
  if (answer_deferred) return;  // logged when the answer is written
  std::printf("%s %s %d\n", req.method.c_str(), LoggablePath(req.path).c_str(), res.status);
}

// cpp-httplib's request handling without its connection loop: the gate
// (connection_gate.h) owns the sockets and hands over whole requests.
class LibraryServer : public httplib::Server {
 public:
  // Handles one request read from `stream`; false when the connection must close.
  bool HandleOne(httplib::Stream& stream) {
    bool connection_closed = false;
    const bool ok = process_request(stream, false, connection_closed, nullptr);
    return ok && !connection_closed;
  }
};

// A request already in memory in, the response into memory out.
class BufferStream : public httplib::Stream {
 public:
  explicit BufferStream(const GateRequest& request) : request_(request) {}

  bool is_readable() const override { return read_ < request_.bytes.size(); }
  bool is_writable() const override { return true; }
  ssize_t read(char* ptr, size_t size) override {
    const std::size_t count = std::min(size, request_.bytes.size() - read_);
    std::copy_n(request_.bytes.data() + read_, count, ptr);
    read_ += count;
    return static_cast<ssize_t>(count);
  }
  ssize_t write(const char* ptr, size_t size) override {
    output_.append(ptr, size);
    return static_cast<ssize_t>(size);
  }
  void get_remote_ip_and_port(std::string& ip, int& port) const override {
    ip = request_.remote_ip;
    port = request_.remote_port;
  }
  void get_local_ip_and_port(std::string& ip, int& port) const override {
    ip.clear();
    port = 0;
  }
  socket_t socket() const override { return INVALID_SOCKET; }

  std::string& output() { return output_; }

 private:
  const GateRequest& request_;
  std::size_t read_ = 0;
  std::string output_;
};

const char* ReasonPhrase(int status) {
  switch (status) {
    case 400: return "Bad Request";
    case 408: return "Request Timeout";
    case 413: return "Payload Too Large";
    case 414: return "URI Too Long";
    case 415: return "Unsupported Media Type";
    case 417: return "Expectation Failed";
    case 431: return "Request Header Fields Too Large";
    case 501: return "Not Implemented";
    case 503: return "Service Unavailable";
    default: return "Error";
  }
}

// The gate's refusals look like every other error: JSON under /api, text elsewhere.
std::string RenderRefusal(const FramingError& error, const std::string& target) {
  const bool api = target.empty() || IsApiPath(target.substr(0, target.find('?')));
  const ApiResponse response = api ? ErrorResponse({error.status, error.code, error.message})
                                   : ApiResponse{error.status, "text/plain; charset=utf-8", error.message + "\n", {}};
  std::string text = "HTTP/1.1 " + std::to_string(error.status) + " " + ReasonPhrase(error.status) + "\r\n";
  text += "Content-Type: " + response.content_type + "\r\n";
  text += "Content-Length: " + std::to_string(response.body.size()) + "\r\n";
  text += "Connection: close\r\n";
  text += std::string("Cache-Control: ") + kApiCacheControl + "\r\n";
  for (const auto& header : kSecurityHeaders) text += std::string(header.first) + ": " + header.second + "\r\n";
  text += "\r\n" + response.body;
  return text;
}

GateOptions ToGateOptions(const HttpServerOptions& options) {
  GateOptions gate;
  gate.host = options.host;
  gate.port = options.port;
  gate.worker_threads = options.worker_threads;
  gate.request_deadline = std::chrono::seconds(options.io_timeout_seconds);
  gate.write_deadline = std::chrono::seconds(options.io_timeout_seconds);
  gate.limits.max_body_bytes = kMaxBodyBytes;
  return gate;
}

}  // namespace

namespace {

// An asynchronous route with a usual answer: plain requests to it take the
// direct path (plain_request.h) once the library has rendered that answer for one.
struct DirectRoute {
  explicit DirectRoute(Route with) : route(std::move(with)), usual(route.usual_answer()) {}

  // The library's bytes of the usual answer to a plain request; null until one came.
  std::shared_ptr<const std::string> Bytes() {
    std::lock_guard<std::mutex> lock(mutex);
    return bytes;
  }
  void Remember(const std::string& rendered) {
    std::lock_guard<std::mutex> lock(mutex);
    if (!bytes) bytes = std::make_shared<const std::string>(rendered);
  }

  const Route route;
  const ApiResponse usual;  // route.usual_answer(), rendered once

 private:
  std::mutex mutex;
  std::shared_ptr<const std::string> bytes;
};

// A POST pattern in the library's order; `direct` null for a route only the library serves.
struct PostRoute {
  std::regex pattern;
  std::shared_ptr<DirectRoute> direct;
};

// Results of matching paths against the routes' patterns, remembered: a
// std::regex match costs microseconds, and the same few paths come again and
// again (every report to a survey). Bounded: short paths only, forgotten when full.
template <typename Value>
class MatchMemo {
 public:
  template <typename Compute>
  Value Get(const std::string& key, Compute compute) {
    if (key.size() > kMaxKeyBytes) return compute();
    {
      std::lock_guard<std::mutex> lock(mutex_);
      const auto found = values_.find(key);
      if (found != values_.end()) return found->second;
    }
    Value value = compute();
    std::lock_guard<std::mutex> lock(mutex_);
    if (values_.size() >= kMaxEntries) values_.clear();
    values_.emplace(key, value);
    return value;
  }

 private:
  static constexpr std::size_t kMaxEntries = 1024;
  static constexpr std::size_t kMaxKeyBytes = 256;  // at most a few hundred kilobytes in all
  std::mutex mutex_;
  std::unordered_map<std::string, Value> values_;
};

// The route the library gives a POST path: its place in PostRoute order (-1: none) and its captures.
struct PostMatch {
  int route = -1;
  std::vector<std::string> params;
};

// What turns the gate's requests into responses.
struct Handling {
  LibraryServer library;
  std::vector<PostRoute> post_routes;
  MatchMemo<PostMatch> post_matches;  // by path
  bool access_log = false;
};

}  // namespace

struct HttpServer::Impl {
  Handling handling;
  HttpServerOptions options;
  std::unique_ptr<ConnectionGate> gate;
};

namespace {

// An asynchronous handler's answer may come before it returns (on this
// thread: written at once) or later (from any thread: through the gate's resume).
struct AsyncCall {
  std::mutex mutex;
  bool handler_returned = false;
  std::optional<ApiResult> early;
  std::function<void(std::shared_ptr<void>)> resume;
  std::shared_ptr<const DirectRoute> usual;  // its usual answer, sent as rendered if the answer is this
  std::string log_line;              // for the access log when the usual answer goes out
};

bool IsResponse(const ApiResult& result, const ApiResponse& expected) {
  const auto* response = std::get_if<ApiResponse>(&result);
  return response && response->status == expected.status && response->body == expected.body &&
         response->content_type == expected.content_type && response->headers == expected.headers;
}

// Delivers an answer that came after the handler returned.
void DeliverLate(AsyncCall& call, ApiResult result) {
  if (call.usual && IsResponse(result, call.usual->usual)) {
    if (!call.log_line.empty()) std::fputs(call.log_line.c_str(), stdout);
    return call.resume(nullptr);  // the gate sends the first pass's bytes
  }
  call.resume(std::make_shared<ApiResult>(std::move(result)));
}

// The `respond` an asynchronous handler gets: kept as early if it comes
// before the handler returned, delivered late otherwise.
Respond AnswerTo(std::shared_ptr<AsyncCall> call) {
  return [call = std::move(call)](ApiResult result) {
    std::unique_lock<std::mutex> lock(call->mutex);
    if (!call->handler_returned) {
      call->early = std::move(result);
      return;
    }
    lock.unlock();
    DeliverLate(*call, std::move(result));
  };
}

// Runs the handler, or, when the gate runs the request again with an
// unusual answer, writes that answer.
void RunAsync(const Route& route, const std::shared_ptr<DirectRoute>& direct, bool access_log,
              const httplib::Request& req, httplib::Response& res) {
  if (current_request && current_request->resolution) {
    return WriteResponse(ToResponse(*std::static_pointer_cast<ApiResult>(current_request->resolution)), req, res);
  }
  auto call = std::make_shared<AsyncCall>();
  if (current_request) call->resume = current_request->resume;
  route.async_handler(ToApiRequest(req), AnswerTo(call));
  std::lock_guard<std::mutex> lock(call->mutex);
  call->handler_returned = true;
  if (call->early) return WriteResponse(ToResponse(std::move(*call->early)), req, res);
  if (!call->resume) throw std::logic_error("an asynchronous route was called outside the connection gate");
  answer_deferred = true;  // not logged now; what the library writes is kept only if it is the usual answer
  if (!direct) {  // no usual answer
    res.status = 202;
    return;
  }
  deferred_direct = direct.get();
  call->usual = direct;
  if (access_log) {
    call->log_line = req.method + " " + LoggablePath(req.path) + " " + std::to_string(direct->usual.status) + "\n";
  }
  WriteResponse(direct->usual, req, res);
}

void RegisterRoutes(httplib::Server& server, const std::vector<Route>& routes, bool access_log,
                    std::vector<PostRoute>& post_routes) {
  for (const auto& route : routes) {
    httplib::Server::Handler handler;
    std::shared_ptr<DirectRoute> direct;
    if (route.async_handler && route.usual_answer) direct = std::make_shared<DirectRoute>(route);
    if (route.method == HttpMethod::kPost) post_routes.push_back({std::regex(route.pattern), direct});
    if (route.async_handler) {
      handler = [route, direct, access_log](const httplib::Request& req, httplib::Response& res) {
        RunAsync(route, direct, access_log, req, res);
      };
    } else {
      handler = [handler = route.handler](const httplib::Request& req, httplib::Response& res) {
        WriteResponse(ToResponse(handler(ToApiRequest(req))), req, res);
      };
    }
    if (route.method == HttpMethod::kGet) server.Get(route.pattern, handler);
    if (route.method == HttpMethod::kPost) server.Post(route.pattern, handler);
  }
}

// The gate's test for requests cheap enough for its loop threads: the routes marked runs_inline.
std::function<bool(const RequestHead&)> InlineRoutes(const std::vector<Route>& routes) {
  std::vector<std::pair<std::string, std::regex>> inline_routes;
  for (const auto& route : routes) {
    if (route.runs_inline) inline_routes.emplace_back(route.method == HttpMethod::kGet ? "GET" : "POST", std::regex(route.pattern));
  }
  auto memo = std::make_shared<MatchMemo<bool>>();  // by method and path
  return [inline_routes, memo](const RequestHead& head) {
    const std::string path = head.target.substr(0, head.target.find('?'));
    return memo->Get(head.method + " " + path, [&] {
      for (const auto& [method, pattern] : inline_routes) {
        if (head.method == method && std::regex_match(path, pattern)) return true;
      }
      return false;
    });
  };
}

void InstallHandlers(httplib::Server& server, bool access_log) {
  httplib::Headers security_headers;
  for (const auto& header : kSecurityHeaders) security_headers.emplace(header.first, header.second);
  server.set_default_headers(security_headers);
  server.set_error_handler(httplib::Server::HandlerWithResponse(HandleLibraryError));
  server.set_exception_handler(HandleException);
  if (access_log) server.set_logger(LogRequest);
  server.set_payload_max_length(kMaxBodyBytes);  // the gate checks first; this is the second line
  // Only the Keep-Alive header's numbers: the gate decides when a connection closes.
  server.set_keep_alive_timeout(5);
  server.set_keep_alive_max_count(1000);
}

std::string_view RequestLine(const std::string& bytes) {
  return std::string_view(bytes).substr(0, bytes.find("\r\n"));
}

// The route the library would give a plain POST: the first pattern its path
// matches, if that route takes the direct path and its usual answer's bytes
// are known; the captures into `params`.
std::shared_ptr<DirectRoute> DirectRouteFor(Handling& impl, const RequestHead& head, std::vector<std::string>& params) {
  PostMatch found = impl.post_matches.Get(head.target, [&] {
    PostMatch result;
    std::smatch match;
    for (std::size_t i = 0; i < impl.post_routes.size(); ++i) {
      if (!std::regex_match(head.target, match, impl.post_routes[i].pattern)) continue;
      result.route = static_cast<int>(i);
      for (std::size_t k = 1; k < match.size(); ++k) result.params.push_back(match[k].str());
      break;
    }
    return result;
  });
  if (found.route < 0 || !impl.post_routes[static_cast<std::size_t>(found.route)].direct) return nullptr;
  params = std::move(found.params);
  return impl.post_routes[static_cast<std::size_t>(found.route)].direct;
}

GateResponse HandleRequest(Handling& impl, const GateRequest& request);

// A plain request to a direct route, without the library (plain_request.h):
// the handler runs on the ApiRequest built from the gate's head, and the
// usual answer goes out as the bytes the library rendered for it. An answer
// the handler gives at once (a refusal) is rendered by the library, as a late
// unusual one is. nullopt: not such a request.
std::optional<GateResponse> HandleDirect(Handling& impl, const GateRequest& request) {
  const RequestHead& head = request.head;
  if (head.method != "POST" || !request.resume || !IsPlainRequest(head, RequestLine(request.bytes))) return std::nullopt;
  std::vector<std::string> params;
  const std::shared_ptr<DirectRoute> direct = DirectRouteFor(impl, head, params);
  const std::shared_ptr<const std::string> bytes = direct ? direct->Bytes() : nullptr;
  if (!bytes) return std::nullopt;
  auto call = std::make_shared<AsyncCall>();
  call->resume = request.resume;
  call->usual = direct;
  if (impl.access_log) {
    call->log_line = head.method + " " + LoggablePath(head.target) + " " + std::to_string(direct->usual.status) + "\n";
  }
  ApiRequest api = PlainApiRequest(head, request.bytes.substr(request.bytes.size() - head.content_length),
                                   std::move(params), request.remote_ip);
  api.client_gone = request.client_gone;
  std::optional<ApiResult> failed;
  try {
    direct->route.async_handler(api, AnswerTo(call));
  } catch (const std::exception& error) {  // as HandleException
    std::cerr << "error: " << head.method << " " << head.target << ": unexpected exception: " << error.what() << std::endl;
    failed = ApiErrorFor(WireCode::kInternal, "internal server error");
  } catch (...) {
    std::cerr << "error: " << head.method << " " << head.target << ": unexpected non-standard exception" << std::endl;
    failed = ApiErrorFor(WireCode::kInternal, "internal server error");
  }
  {
    std::lock_guard<std::mutex> lock(call->mutex);
    call->handler_returned = true;
    if (!failed && call->early) failed = std::move(call->early);
    if (!failed) return GateResponse{*bytes, false, true};  // the usual answer, ready if it comes
  }
  GateRequest answered = request;
  answered.resolution = std::make_shared<ApiResult>(std::move(*failed));
  return HandleRequest(impl, answered);
}

GateResponse HandleRequest(Handling& impl, const GateRequest& request) {
  if (!request.resolution) {
    if (auto response = HandleDirect(impl, request)) return std::move(*response);
  }
  current_request = &request;
  answer_deferred = false;
  deferred_direct = nullptr;
  BufferStream stream(request);
  const bool keep_alive = impl.library.HandleOne(stream);
  current_request = nullptr;
  if (answer_deferred) {
    answer_deferred = false;
    // The usual answer to a plain request, as the library renders it: the direct path's from now on.
    if (deferred_direct && keep_alive && IsPlainRequest(request.head, RequestLine(request.bytes))) {
      deferred_direct->Remember(stream.output());
    }
    deferred_direct = nullptr;
    return {std::move(stream.output()), !keep_alive, true};  // the usual answer, ready if it comes
  }
  return {std::move(stream.output()), !keep_alive, false};
}

}  // namespace

HttpServer::HttpServer(const std::vector<Route>& routes, HttpServerOptions options) : impl_(new Impl) {
  impl_->options = std::move(options);
  Handling& handling = impl_->handling;
  handling.access_log = impl_->options.access_log;
  RegisterRoutes(handling.library, routes, handling.access_log, handling.post_routes);
  InstallHandlers(handling.library, handling.access_log);
  GateOptions gate_options = ToGateOptions(impl_->options);
  gate_options.runs_inline = InlineRoutes(routes);
  impl_->gate = std::make_unique<ConnectionGate>(
      std::move(gate_options), [&handling](const GateRequest& request) { return HandleRequest(handling, request); },
      RenderRefusal);
}

HttpServer::~HttpServer() = default;

Result<int> HttpServer::Bind() { return impl_->gate->Bind(); }

void HttpServer::Serve() { impl_->gate->Serve(); }

void HttpServer::Stop() { impl_->gate->Stop(); }

}  // namespace deniable::server
