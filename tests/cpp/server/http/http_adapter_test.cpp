// HttpServer (the gate and cpp-httplib together) on a loopback port with a
// few routes of the test's own: what a handler sees of a request, the
// security headers on every response (handlers', the library's own errors,
// the gate's refusals), error bodies as JSON under /api and as text
// elsewhere, an exception's text never sent, Accept-Encoding hidden from the
// library (it would compress by itself), and asynchronous routes.
#include "server/http/http_adapter.h"

#include <doctest/doctest.h>

#include <chrono>
#include <future>
#include <map>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "server/http/security_headers.h"
#include "test_client.h"

namespace deniable::server {
namespace {

using testing::Client;

struct Reply {
  std::string status_line;
  std::map<std::string, std::string> headers;  // names in lowercase
  std::string body;

  std::string Header(const std::string& lowercase_name) const {
    const auto it = headers.find(lowercase_name);
    return it == headers.end() ? "<absent>" : it->second;
  }
};

// One response from the connection, its body by Content-Length.
Reply ReadReply(Client& client) {
  Reply reply;
  const std::string head = client.ReadHead();
  std::size_t line_end = head.find("\r\n");
  REQUIRE(line_end != std::string::npos);
  reply.status_line = head.substr(0, line_end);
  for (std::size_t start = line_end + 2; start + 2 < head.size(); start = line_end + 2) {
    line_end = head.find("\r\n", start);
    const std::string line = head.substr(start, line_end - start);
    const std::size_t colon = line.find(':');
    std::string name = line.substr(0, colon);
    for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    reply.headers[name] = line.substr(line.find_first_not_of(' ', colon + 1));
  }
  const auto length = reply.headers.find("content-length");
  if (length != reply.headers.end()) reply.body = client.Read(std::stoul(length->second));
  return reply;
}

Reply Exchange(int port, const std::string& request) {
  Client client(port);
  client.Send(request);
  return ReadReply(client);
}

void CheckSecurityHeaders(const Reply& reply) {
  for (const auto& [name, value] : kSecurityHeaders) {
    std::string lower = name;
    for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    CAPTURE(name);
    const auto it = reply.headers.find(lower);
    REQUIRE(it != reply.headers.end());
    CHECK(it->second == value);
  }
}

// What a handler saw of its request, as JSON.
ApiResult Describe(const ApiRequest& request) {
  nlohmann::json headers = nlohmann::json::object();
  for (const auto& [name, value] : request.headers) {
    if (name != "host" && name != "remote_addr" && name != "remote_port" && name != "local_addr" &&
        name != "local_port" && name != "content-length") {
      headers[name] = value;
    }
  }
  return JsonResponse(200, {{"method", request.method},
                            {"path", request.path},
                            {"params", request.path_params},
                            {"query", request.query},
                            {"repeated", request.repeated_query},
                            {"headers", headers},
                            {"body", request.body},
                            {"remote", request.remote_address}});
}

// A server with the test's routes, serving on its own thread until destroyed.
class TestServer {
 public:
  TestServer() : server_(Routes(), Options()) {
    const Result<int> bound = server_.Bind();
    REQUIRE(bound.ok());
    port_ = *bound;
    serving_ = std::async(std::launch::async, [this] { server_.Serve(); });
  }
  ~TestServer() {
    server_.Stop();
    CHECK(serving_.wait_for(std::chrono::seconds(3)) == std::future_status::ready);
  }
  int port() const { return port_; }

 private:
  static HttpServerOptions Options() {
    HttpServerOptions options;
    options.port = 0;
    options.access_log = false;
    options.worker_threads = 2;
    return options;
  }
  static std::vector<Route> Routes() {
    std::vector<Route> routes;
    routes.push_back({HttpMethod::kGet, R"(/api/things/([a-z]+))", Describe});
    routes.push_back({HttpMethod::kPost, "/api/things", Describe});
    routes.push_back({HttpMethod::kGet, "/api/large", [](const ApiRequest&) -> ApiResult {
                        return ApiResponse{200, "application/json", "\"" + std::string(20000, 'a') + "\"", {}};
                      }});
    routes.push_back({HttpMethod::kGet, "/api/throws", [](const ApiRequest&) -> ApiResult {
                        throw std::runtime_error("a detail the client must not see");
                      }});
    routes.push_back({HttpMethod::kGet, "/page", [](const ApiRequest&) -> ApiResult {
                        return ApiResponse{200, "text/html; charset=utf-8", "<p>page</p>", {{"X-Page", "1"}}};
                      }});
    // Answers from another thread, after the handler has returned: the usual
    // answer when the body is "usual", another one otherwise.
    Route async{HttpMethod::kPost, "/api/later", nullptr};
    async.async_handler = [](const ApiRequest& request, Respond respond) {
      std::thread([body = request.body, respond] {
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
        respond(body == "usual" ? ApiResult(JsonResponse(201, {{"stored", true}}))
                                : ApiResult(JsonResponse(200, {{"unusual", body}})));
      }).detach();
    };
    async.usual_answer = [] { return JsonResponse(201, {{"stored", true}}); };
    routes.push_back(std::move(async));
    // The same, with a capture: "describe" answers late with what the handler
    // saw, "refuse" at once with an error, "throw" throws.
    Route described{HttpMethod::kPost, R"(/api/later/([a-z]+))", nullptr};
    described.async_handler = [](const ApiRequest& request, Respond respond) {
      if (request.body == "refuse") return respond(ApiError{409, "refused", "refused at once"});
      if (request.body == "throw") throw std::runtime_error("a detail the client must not see");
      ApiResult answer = request.body == "describe" ? Describe(request) : ApiResult(JsonResponse(201, {{"stored", true}}));
      std::thread([answer, respond] {
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
        respond(answer);
      }).detach();
    };
    described.usual_answer = [] { return JsonResponse(201, {{"stored", true}}); };
    routes.push_back(std::move(described));
    return routes;
  }

  HttpServer server_;
  int port_ = 0;
  std::future<void> serving_;
};

}  // namespace

TEST_CASE("http adapter: a handler sees the method, path captures, first query values, lowercase headers and body") {
  TestServer server;
  const Reply reply = Exchange(server.port(),
                               "GET /api/things/abc?x=1&y=2&x=3 HTTP/1.1\r\nHost: h\r\nX-Custom-Header: Value\r\n"
                               "Accept-Encoding: gzip, br\r\n\r\n");
  CHECK(reply.status_line == "HTTP/1.1 200 OK");
  const nlohmann::json seen = nlohmann::json::parse(reply.body);
  CHECK(seen["method"] == "GET");
  CHECK(seen["path"] == "/api/things/abc");
  CHECK(seen["params"] == nlohmann::json::array({"abc"}));
  CHECK(seen["query"] == nlohmann::json{{"x", "1"}, {"y", "2"}});
  CHECK(seen["repeated"] == nlohmann::json::array({"x"}));
  // The client's Accept-Encoding reaches the handler under its own name (the library saw another).
  CHECK(seen["headers"] == nlohmann::json{{"x-custom-header", "Value"}, {"accept-encoding", "gzip, br"}});
  CHECK(seen["remote"] == "127.0.0.1");
  const Reply posted =
      Exchange(server.port(), "POST /api/things HTTP/1.1\r\nContent-Type: application/json\r\nContent-Length: 7\r\n\r\n"
                              "{\"a\":1}");
  CHECK(nlohmann::json::parse(posted.body)["body"] == "{\"a\":1}");
}

TEST_CASE("http adapter: API responses carry the security headers and no-store; pages the security headers only") {
  TestServer server;
  const Reply api = Exchange(server.port(), "GET /api/things/x HTTP/1.1\r\n\r\n");
  CheckSecurityHeaders(api);
  CHECK(api.Header("cache-control") == "no-store");
  CHECK(api.Header("content-type") == "application/json");
  const Reply page = Exchange(server.port(), "GET /page HTTP/1.1\r\n\r\n");
  CheckSecurityHeaders(page);
  CHECK(page.Header("cache-control") == "<absent>");
  CHECK(page.Header("x-page") == "1");
  CHECK(page.Header("content-type") == "text/html; charset=utf-8");
  CHECK(page.body == "<p>page</p>");
}

TEST_CASE("http adapter: the library never compresses by itself, whatever the client accepts") {
  TestServer server;
  for (const char* accepted : {"br", "gzip", "gzip, deflate, br", "*"}) {
    CAPTURE(accepted);
    const Reply reply =
        Exchange(server.port(), std::string("GET /api/large HTTP/1.1\r\nAccept-Encoding: ") + accepted + "\r\n\r\n");
    CHECK(reply.Header("content-encoding") == "<absent>");
    CHECK(reply.body == "\"" + std::string(20000, 'a') + "\"");
  }
}

TEST_CASE("http adapter: errors are JSON under /api and text elsewhere, with the security headers") {
  TestServer server;
  const Reply unknown = Exchange(server.port(), "GET /api/nothing HTTP/1.1\r\n\r\n");
  CHECK(unknown.status_line == "HTTP/1.1 404 Not Found");
  CHECK(nlohmann::json::parse(unknown.body) ==
        nlohmann::json{{"error", {{"code", "not_found"}, {"message", "no API endpoint GET /api/nothing"}}}});
  CHECK(unknown.Header("cache-control") == "no-store");
  CheckSecurityHeaders(unknown);
  const Reply page = Exchange(server.port(), "GET /nothing HTTP/1.1\r\n\r\n");
  CHECK(page.status_line == "HTTP/1.1 404 Not Found");
  CHECK(page.body == "404 not found\n");
  CHECK(page.Header("content-type") == "text/plain; charset=utf-8");
  CheckSecurityHeaders(page);
  // An exception is logged; the client gets a generic 500.
  const Reply thrown = Exchange(server.port(), "GET /api/throws HTTP/1.1\r\n\r\n");
  CHECK(thrown.status_line == "HTTP/1.1 500 Internal Server Error");
  CHECK(nlohmann::json::parse(thrown.body) ==
        nlohmann::json{{"error", {{"code", "internal"}, {"message", "internal server error"}}}});
  CheckSecurityHeaders(thrown);
}

TEST_CASE("http adapter: the gate's refusals look like every other error and close the connection") {
  TestServer server;
  // Refused before the head was whole (no target known): JSON.
  const Reply declared = Exchange(server.port(), "POST /page HTTP/1.1\r\nContent-Length: 2000000\r\n\r\n");
  CHECK(declared.status_line == "HTTP/1.1 413 Payload Too Large");
  CHECK(nlohmann::json::parse(declared.body) ==
        nlohmann::json{{"error",
                        {{"code", "payload_too_large"},
                         {"message",
                          "request body: Content-Length 2000000 is larger than the limit of 1048576 bytes (1 MiB)"}}}});
  CHECK(declared.Header("connection") == "close");
  CHECK(declared.Header("cache-control") == "no-store");
  CheckSecurityHeaders(declared);
  // Refused after the head: JSON for /api, text for a page.
  const Reply api = Exchange(server.port(), "POST /api/things HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n");
  CHECK(api.status_line == "HTTP/1.1 400 Bad Request");
  CHECK(api.Header("content-type") == "application/json");
  CHECK(nlohmann::json::parse(api.body)["error"]["message"] == "chunked body: malformed chunk size");
  const Reply page = Exchange(server.port(), "POST /page HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n");
  CHECK(page.status_line == "HTTP/1.1 400 Bad Request");
  CHECK(page.Header("content-type") == "text/plain; charset=utf-8");
  CHECK(page.body == "chunked body: malformed chunk size\n");
  CheckSecurityHeaders(page);
}

TEST_CASE("http adapter: an asynchronous route's late answer is sent: the usual one as rendered first, or another") {
  TestServer server;
  Client client(server.port());
  client.Send("POST /api/later HTTP/1.1\r\nContent-Length: 5\r\n\r\nusual");
  const Reply usual = ReadReply(client);
  CHECK(usual.status_line == "HTTP/1.1 201 Created");
  CHECK(nlohmann::json::parse(usual.body) == nlohmann::json{{"stored", true}});
  CheckSecurityHeaders(usual);
  // The connection stays usable, and an unusual answer is rendered when it comes.
  client.Send("POST /api/later HTTP/1.1\r\nContent-Length: 4\r\n\r\nodd!");
  const Reply odd = ReadReply(client);
  CHECK(odd.status_line == "HTTP/1.1 200 OK");
  CHECK(nlohmann::json::parse(odd.body) == nlohmann::json{{"unusual", "odd!"}});
  CHECK(odd.Header("cache-control") == "no-store");
}

// Plain requests to an asynchronous route skip the library once it has
// rendered the usual answer for one (plain_request.h): what the handler sees
// and what the client gets must not depend on the path taken.
TEST_CASE("http adapter: plain requests to an asynchronous route: the same request seen, the same bytes sent") {
  TestServer server;
  Client client(server.port());
  const std::string usual = "POST /api/later/abc HTTP/1.1\r\nHost: h\r\nContent-Length: 5\r\n\r\nusual";
  std::vector<std::string> raw;  // the first by the library, the others on the direct path
  for (int i = 0; i < 3; ++i) {
    client.Send(usual);
    const std::string head = client.ReadHead();
    raw.push_back(head + client.Read(17));
  }
  CHECK(raw[0].rfind("HTTP/1.1 201 Created\r\n", 0) == 0);
  CHECK(raw[0].find("Keep-Alive: timeout=5, max=1000\r\n") != std::string::npos);
  CHECK(raw[1] == raw[0]);
  CHECK(raw[2] == raw[0]);
  // What the handler saw, by the direct path, and by the library (a query string takes it there).
  const std::string headers =
      "Host: h\r\nX-Custom: One\r\nx-custom: two\r\nX-Forwarded-For: 10.0.0.1\r\nAccept-Encoding: br\r\n"
      "X-Forwarded-For: 10.0.0.2\r\nContent-Type: text/plain\r\nContent-Length: 8\r\n\r\ndescribe";
  client.Send("POST /api/later/abc HTTP/1.1\r\n" + headers);
  const Reply direct = ReadReply(client);
  client.Send("POST /api/later/abc?q=1 HTTP/1.1\r\n" + headers);
  const Reply library = ReadReply(client);
  REQUIRE(direct.status_line == "HTTP/1.1 200 OK");
  REQUIRE(library.status_line == "HTTP/1.1 200 OK");
  nlohmann::json seen_direct = nlohmann::json::parse(direct.body);
  nlohmann::json seen_library = nlohmann::json::parse(library.body);
  CHECK(seen_library["query"] == nlohmann::json{{"q", "1"}});
  seen_library.erase("query");
  seen_direct.erase("query");
  CHECK(seen_direct == seen_library);
  CHECK(seen_direct["params"] == nlohmann::json::array({"abc"}));
  CHECK(seen_direct["headers"] == nlohmann::json{{"x-custom", "One"},
                                                 {"x-forwarded-for", "10.0.0.1, 10.0.0.2"},
                                                 {"accept-encoding", "br"},
                                                 {"content-type", "text/plain"}});
  // An answer given at once, and an exception, rendered as the library renders them.
  client.Send("POST /api/later/abc HTTP/1.1\r\nContent-Length: 6\r\n\r\nrefuse");
  const Reply refused = ReadReply(client);
  CHECK(refused.status_line == "HTTP/1.1 409 Conflict");
  CHECK(nlohmann::json::parse(refused.body) ==
        nlohmann::json{{"error", {{"code", "refused"}, {"message", "refused at once"}}}});
  CHECK(refused.Header("cache-control") == "no-store");
  CheckSecurityHeaders(refused);
  client.Send("POST /api/later/abc HTTP/1.1\r\nContent-Length: 5\r\n\r\nthrow");
  const Reply thrown = ReadReply(client);
  CHECK(thrown.status_line == "HTTP/1.1 500 Internal Server Error");
  CHECK(nlohmann::json::parse(thrown.body) ==
        nlohmann::json{{"error", {{"code", "internal"}, {"message", "internal server error"}}}});
  CheckSecurityHeaders(thrown);
  // Connection: close is the library's to answer: the usual answer says so, and the connection closes.
  client.Send("POST /api/later/abc HTTP/1.1\r\nConnection: close\r\nContent-Length: 5\r\n\r\nusual");
  const Reply closing = ReadReply(client);
  CHECK(closing.status_line == "HTTP/1.1 201 Created");
  CHECK(closing.Header("connection") == "close");
  bool closed = false;
  CHECK(client.ReadToEnd(&closed).empty());
  CHECK(closed);
}

}  // namespace deniable::server
