// ConnectionGate on a loopback port, with a processor and a refusal renderer
// of the test's own (no HTTP library, no handlers): what reaches the
// processor, what is refused before it and how, the deadlines, the worker
// queue's bound, deferred answers, a client that hangs up, and stopping.
// Deadlines are set to a few hundred milliseconds; every wait is bounded.
#include "server/http/connection_gate.h"

#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <functional>
#include <future>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "test_client.h"
#include "test_sync.h"

namespace deniable::server {
namespace {

using std::chrono::milliseconds;
using testing::Client;
using testing::Latch;
using testing::WaitUntil;

std::string Response(int status, const std::string& body) {
  return "HTTP/1.1 " + std::to_string(status) + " X\r\nContent-Length: " + std::to_string(body.size()) + "\r\n\r\n" +
         body;
}

// The refusal as the test renders it: "status code target|message" in the body.
std::string RenderRefusal(const FramingError& error, const std::string& target) {
  return Response(error.status, error.code + " " + target + "|" + error.message);
}

std::string RequestPath(const GateRequest& request) {
  const std::size_t start = request.bytes.find(' ') + 1;
  return request.bytes.substr(start, request.bytes.find(' ', start) - start);
}

// A gate serving on its own thread; stopped and joined when destroyed.
class TestGate {
 public:
  TestGate(GateOptions options, RequestProcessor process)
      : gate_(WithLoopback(std::move(options)), std::move(process), RenderRefusal) {
    Result<int> bound = gate_.Bind();
    REQUIRE(bound.ok());
    port_ = *bound;
    serving_ = std::async(std::launch::async, [this] { gate_.Serve(); });
  }
  ~TestGate() {
    gate_.Stop();
    CHECK(Stopped());
  }
  int port() const { return port_; }
  void Stop() { gate_.Stop(); }
  bool Stopped() { return serving_.wait_for(milliseconds(3000)) == std::future_status::ready; }

 private:
  static GateOptions WithLoopback(GateOptions options) {
    options.host = "127.0.0.1";
    options.port = 0;
    return options;
  }

  ConnectionGate gate_;
  int port_ = 0;
  std::future<void> serving_;
};

// Answers every request with its own bytes as the processor saw them.
GateResponse Echo(const GateRequest& request) { return {Response(200, request.bytes)}; }

}  // namespace

TEST_CASE("connection gate: a whole request reaches the processor with the forwarded head; kept alive and pipelined") {
  std::string remote_ip;
  std::mutex mutex;
  TestGate gate({}, [&](const GateRequest& request) {
    std::lock_guard<std::mutex> lock(mutex);
    remote_ip = request.remote_ip;
    return Echo(request);
  });
  Client client(gate.port());
  // Sent in two pieces: the gate waits for the body the head declares.
  client.Send("POST /api/x HTTP/1.1\r\nAccept-Encoding: gzip\r\nContent-Length: 5\r\n\r\nhe");
  std::this_thread::sleep_for(milliseconds(20));
  client.Send("llo");
  const std::string forwarded = "POST /api/x HTTP/1.1\r\nX-Deniable-Accept-Encoding: gzip\r\nContent-Length: 5\r\n\r\nhello";
  CHECK(client.Read(Response(200, forwarded).size()) == Response(200, forwarded));
  {
    std::lock_guard<std::mutex> lock(mutex);
    CHECK(remote_ip == "127.0.0.1");
  }
  // The same connection takes the next requests, two of them sent at once.
  const std::string a = "GET /a HTTP/1.1\r\n\r\n";
  const std::string b = "GET /b HTTP/1.1\r\n\r\n";
  client.Send(a + b);
  const std::string expected = Response(200, a) + Response(200, b);
  CHECK(client.Read(expected.size()) == expected);
}

TEST_CASE("connection gate: framing refusals are answered at once, unread, and closed; nothing reaches the processor") {
  GateOptions options;
  options.limits.max_body_bytes = 10;
  std::atomic<int> processed{0};
  TestGate gate(options, [&](const GateRequest& request) {
    ++processed;
    return Echo(request);
  });
  bool closed = false;
  // Refused before the head was parsed whole: no target (the adapter then answers JSON).
  Client declared(gate.port());
  declared.Send("POST /api/x HTTP/1.1\r\nContent-Length: 100\r\n\r\n");  // no body sent
  CHECK(declared.ReadToEnd(&closed) ==
        Response(413, "payload_too_large |request body: Content-Length 100 is larger than the limit of 10 bytes (1 MiB)"));
  CHECK(closed);
  Client malformed(gate.port());
  malformed.Send("GET / HTTP/9\r\n\r\n");
  CHECK(malformed.ReadToEnd(&closed) == Response(400, "bad_request |malformed HTTP request line"));
  CHECK(closed);
  // Refused after the head: the request's target, for the error's format.
  Client chunked(gate.port());
  chunked.Send("POST /api/x HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nB\r\n");
  CHECK(chunked.ReadToEnd(&closed) ==
        Response(413, "payload_too_large /api/x|request body: larger than the limit of 10 bytes (1 MiB)"));
  CHECK(closed);
  CHECK(processed == 0);
}

TEST_CASE("connection gate: a refused upload is drained, so the client reads the refusal and an orderly close") {
  GateOptions options;
  options.limits.max_body_bytes = 10;
  TestGate gate(options, Echo);
  Client client(gate.port());
  // The body keeps coming after the refusal; closing on unread bytes would
  // reset the connection, and the client would see an error, not the 413.
  client.Send("POST /api/x HTTP/1.1\r\nContent-Length: 200000\r\n\r\n" + std::string(200000, 'x'));
  bool closed = false;
  CHECK(client.ReadToEnd(&closed) ==
        Response(413, "payload_too_large |request body: Content-Length 200000 is larger than the limit of 10 bytes (1 MiB)"));
  CHECK(closed);
}

TEST_CASE("connection gate: at the connection limit an idle connection makes way; one mid-request does not") {
  GateOptions options;
  options.max_connections = 1;
  TestGate gate(options, Echo);
  Client idle(gate.port());
  Client newcomer(gate.port());
  const std::string request = "GET /new HTTP/1.1\r\n\r\n";
  newcomer.Send(request);
  CHECK(newcomer.Read(Response(200, request).size()) == Response(200, request));
  bool closed = false;
  CHECK(idle.ReadToEnd(&closed).empty());  // evicted for the newcomer
  CHECK(closed);
  // The newcomer is now mid-request (the 100 Continue shows its head was read): a third client is turned away.
  newcomer.Send("POST /busy HTTP/1.1\r\nExpect: 100-continue\r\nContent-Length: 1\r\n\r\n");
  const std::string go_on = "HTTP/1.1 100 Continue\r\n\r\n";
  REQUIRE(newcomer.Read(go_on.size()) == go_on);
  Client turned_away(gate.port());
  CHECK(turned_away.ReadToEnd(&closed).empty());
  CHECK(closed);
  newcomer.Send("x");
  const std::string busy = "POST /busy HTTP/1.1\r\nContent-Length: 1\r\n\r\nx";
  CHECK(newcomer.Read(Response(200, busy).size()) == Response(200, busy));
}

TEST_CASE("connection gate: Expect 100-continue is answered before the body is sent, and not forwarded") {
  TestGate gate({}, Echo);
  Client client(gate.port());
  client.Send("PUT /f HTTP/1.1\r\nExpect: 100-continue\r\nContent-Length: 2\r\n\r\n");
  const std::string go_on = "HTTP/1.1 100 Continue\r\n\r\n";
  CHECK(client.Read(go_on.size()) == go_on);
  client.Send("ok");
  const std::string expected = Response(200, "PUT /f HTTP/1.1\r\nContent-Length: 2\r\n\r\nok");
  CHECK(client.Read(expected.size()) == expected);
}

TEST_CASE("connection gate: deadlines: a request not sent whole is answered 408, an idle connection closed silently") {
  GateOptions options;
  options.request_deadline = milliseconds(200);
  options.idle_timeout = milliseconds(150);
  TestGate gate(options, Echo);
  const auto start = std::chrono::steady_clock::now();
  const auto waited = [&start] { return std::chrono::steady_clock::now() - start; };
  Client idle(gate.port());
  Client slow(gate.port());
  slow.Send("POST /api/slow HTTP/1.1\r\nContent-Length: 10\r\n\r\nabc");
  bool closed = false;
  CHECK(idle.ReadToEnd(&closed).empty());
  CHECK(closed);
  // Each deadline is honoured to within the loop's 100 ms tick.
  CHECK(waited() >= milliseconds(150));
  CHECK(waited() < milliseconds(1500));
  const std::string answer = slow.ReadToEnd(&closed);
  CHECK(closed);
  CHECK(answer.rfind("HTTP/1.1 408 X\r\n", 0) == 0);
  CHECK(answer.find("\r\n\r\nrequest_timeout /api/slow|the request was not received whole within ") != std::string::npos);
  CHECK(waited() >= milliseconds(200));
  CHECK(waited() < milliseconds(1500));
}

TEST_CASE("connection gate: request bytes over the server-wide buffer bound are refused with 503") {
  GateOptions options;
  options.max_buffered_bytes = 64;
  TestGate gate(options, Echo);
  Client client(gate.port());
  client.Send("POST /api/x HTTP/1.1\r\nContent-Length: 60\r\n\r\n" + std::string(60, 'x'));
  bool closed = false;
  CHECK(client.ReadToEnd(&closed) ==
        Response(503, "server_busy |the server is holding too much request data; retry shortly"));
  CHECK(closed);
}

TEST_CASE("connection gate: past max_queued_requests waiting for a worker, a request is refused with 503 at once") {
  GateOptions options;
  options.worker_threads = 1;
  options.max_queued_requests = 1;
  options.runs_inline = [](const RequestHead& head) { return head.target == "/inline"; };
  Latch release;
  std::atomic<int> blocked{0};
  TestGate gate(options, [&](const GateRequest& request) -> GateResponse {
    if (RequestPath(request) == "/block") {
      ++blocked;
      CHECK(release.Wait());
    }
    return {Response(200, RequestPath(request))};
  });
  Client running(gate.port());
  running.Send("GET /block HTTP/1.1\r\n\r\n");
  REQUIRE(WaitUntil([&] { return blocked == 1; }));  // the only worker is busy
  Client queued(gate.port());
  queued.Send("GET /block HTTP/1.1\r\n\r\n");
  // An inline request is answered by the loop itself, with the worker busy;
  // once it is answered, the loop has also read the request queued before it.
  Client probe(gate.port());
  probe.Send("GET /inline HTTP/1.1\r\n\r\n");
  CHECK(probe.Read(Response(200, "/inline").size()) == Response(200, "/inline"));
  Client refused(gate.port());
  refused.Send("GET /block HTTP/1.1\r\n\r\n");
  bool closed = false;
  CHECK(refused.ReadToEnd(&closed) == Response(503, "server_busy /block|too many requests are waiting; retry shortly"));
  CHECK(closed);
  release.Open();
  CHECK(running.Read(Response(200, "/block").size()) == Response(200, "/block"));
  CHECK(queued.Read(Response(200, "/block").size()) == Response(200, "/block"));
  CHECK(blocked == 2);
}

TEST_CASE("connection gate: when the client hangs up during processing, the request's client_gone is set") {
  std::atomic<bool> started{false};
  std::atomic<bool> saw_gone{false};
  TestGate gate({}, [&](const GateRequest& request) -> GateResponse {
    started = true;
    saw_gone = WaitUntil([&] { return request.client_gone->load(); });
    return {Response(200, "late")};
  });
  Client client(gate.port());
  client.Send("GET /api/estimate HTTP/1.1\r\n\r\n");
  REQUIRE(WaitUntil([&] { return started.load(); }));
  client.Close();
  CHECK(WaitUntil([&] { return saw_gone.load(); }));
}

TEST_CASE("connection gate: a request sent during another's processing waits its turn; a half-close still gets the answer") {
  Latch release_first;
  std::atomic<int> started{0};
  std::atomic<bool> last_saw_gone{false};
  TestGate gate({}, [&](const GateRequest& request) -> GateResponse {
    const std::string path = RequestPath(request);
    ++started;
    if (path == "/first") CHECK(release_first.Wait());
    if (path == "/last") last_saw_gone = WaitUntil([&] { return request.client_gone->load(); });
    return {Response(200, path)};
  });
  Client client(gate.port());
  client.Send("GET /first HTTP/1.1\r\n\r\n");
  REQUIRE(WaitUntil([&] { return started == 1; }));
  client.Send("GET /second HTTP/1.1\r\n\r\n");  // arrives while /first is handled
  release_first.Open();
  const std::string both = Response(200, "/first") + Response(200, "/second");
  CHECK(client.Read(both.size()) == both);
  CHECK(started == 2);
  // The client stops sending while its request is handled: the handler may
  // take that for a departure, but the answer is still sent, then the connection closed.
  client.Send("GET /last HTTP/1.1\r\n\r\n");
  REQUIRE(WaitUntil([&] { return started == 3; }));
  client.ShutdownWrite();
  bool closed = false;
  CHECK(client.ReadToEnd(&closed) == Response(200, "/last"));
  CHECK(closed);
  CHECK(last_saw_gone);
}

TEST_CASE("connection gate: a deferred answer is sent when resumed, as prepared or rendered from the answer") {
  std::mutex mutex;
  std::function<void(std::shared_ptr<void>)> resume;
  TestGate gate({}, [&](const GateRequest& request) -> GateResponse {
    if (request.resolution) return {Response(200, "answer " + *std::static_pointer_cast<std::string>(request.resolution))};
    std::lock_guard<std::mutex> lock(mutex);
    resume = request.resume;
    GateResponse later;
    later.deferred = true;
    later.bytes = Response(202, "prepared");
    return later;
  });
  const auto take_resume = [&] {
    std::function<void(std::shared_ptr<void>)> taken;
    REQUIRE(WaitUntil([&] {
      std::lock_guard<std::mutex> lock(mutex);
      return static_cast<bool>(resume);
    }));
    std::lock_guard<std::mutex> lock(mutex);
    taken.swap(resume);
    return taken;
  };
  Client client(gate.port());
  client.Send("POST /api/reports HTTP/1.1\r\n\r\n");
  take_resume()(std::make_shared<std::string>("committed"));
  CHECK(client.Read(Response(200, "answer committed").size()) == Response(200, "answer committed"));
  client.Send("POST /api/reports HTTP/1.1\r\n\r\n");
  take_resume()(nullptr);
  CHECK(client.Read(Response(202, "prepared").size()) == Response(202, "prepared"));
}

TEST_CASE("connection gate: with several event loops, deferred answers resumed from another thread reach their loops") {
  GateOptions options;
  options.event_loops = 3;
  std::mutex mutex;
  std::vector<std::function<void(std::shared_ptr<void>)>> resumes;
  TestGate gate(options, [&](const GateRequest& request) -> GateResponse {
    std::lock_guard<std::mutex> lock(mutex);
    resumes.push_back(request.resume);
    GateResponse later;
    later.deferred = true;
    later.bytes = Response(201, RequestPath(request));
    return later;
  });
  constexpr int kClients = 7;  // more than the loops: each loop holds some
  std::vector<std::unique_ptr<Client>> clients;
  for (int i = 0; i < kClients; ++i) {
    clients.push_back(std::make_unique<Client>(gate.port()));
    clients.back()->Send("POST /r" + std::to_string(i) + " HTTP/1.1\r\n\r\n");
  }
  REQUIRE(WaitUntil([&] {
    std::lock_guard<std::mutex> lock(mutex);
    return resumes.size() == kClients;
  }));
  std::thread resumer([&] {  // as the report writer answers: from its own thread, all at once
    std::lock_guard<std::mutex> lock(mutex);
    for (auto& resume : resumes) resume(nullptr);
  });
  resumer.join();
  for (int i = 0; i < kClients; ++i) {
    const std::string expected = Response(201, "/r" + std::to_string(i));
    CHECK(clients[static_cast<std::size_t>(i)]->Read(expected.size()) == expected);
  }
}

TEST_CASE("connection gate: at the limit, a loop with no idle connection passes the newcomer to one that has") {
  GateOptions options;
  options.event_loops = 3;
  options.max_connections = 2;
  TestGate gate(options, Echo);
  // The first connection goes to the first loop: mid-request there (the 100 Continue shows its head was read).
  Client busy(gate.port());
  busy.Send("POST /busy HTTP/1.1\r\nExpect: 100-continue\r\nContent-Length: 1\r\n\r\n");
  const std::string go_on = "HTTP/1.1 100 Continue\r\n\r\n";
  REQUIRE(busy.Read(go_on.size()) == go_on);
  // The second to another loop, answered once, then idle.
  Client idle(gate.port());
  const std::string first = "GET /idle HTTP/1.1\r\n\r\n";
  idle.Send(first);
  REQUIRE(idle.Read(Response(200, first).size()) == Response(200, first));
  // A third: the first loop has nothing idle, the idle connection's loop makes way.
  Client newcomer(gate.port());
  const std::string request = "GET /new HTTP/1.1\r\n\r\n";
  newcomer.Send(request);
  CHECK(newcomer.Read(Response(200, request).size()) == Response(200, request));
  bool closed = false;
  CHECK(idle.ReadToEnd(&closed).empty());
  CHECK(closed);
  // Both open connections busy or answering: a fourth is turned away by every loop.
  newcomer.Send("POST /busy2 HTTP/1.1\r\nExpect: 100-continue\r\nContent-Length: 1\r\n\r\n");
  REQUIRE(newcomer.Read(go_on.size()) == go_on);
  Client turned_away(gate.port());
  CHECK(turned_away.ReadToEnd(&closed).empty());
  CHECK(closed);
  busy.Send("x");
  const std::string done = "POST /busy HTTP/1.1\r\nContent-Length: 1\r\n\r\nx";
  CHECK(busy.Read(Response(200, done).size()) == Response(200, done));
}

TEST_CASE("connection gate: Stop lets the request in progress finish and its answer go out, then Serve returns") {
  Latch release;
  std::atomic<bool> started{false};
  TestGate gate({}, [&](const GateRequest&) -> GateResponse {
    started = true;
    CHECK(release.Wait());
    return {Response(200, "finished")};
  });
  Client client(gate.port());
  client.Send("GET /api/estimate HTTP/1.1\r\n\r\n");
  REQUIRE(WaitUntil([&] { return started.load(); }));
  gate.Stop();
  release.Open();
  bool closed = false;
  CHECK(client.ReadToEnd(&closed) == Response(200, "finished"));
  CHECK(closed);  // no keep-alive while stopping
  client.Close();
  CHECK(gate.Stopped());
}

TEST_CASE("connection gate: a port in use cannot be bound, and says so") {
  TestGate first({}, Echo);
  GateOptions options;
  options.port = first.port();
  ConnectionGate second(options, Echo, RenderRefusal);
  const Result<int> bound = second.Bind();
  REQUIRE_FALSE(bound.ok());
  CHECK(bound.error() ==
        "cannot listen on 127.0.0.1:" + std::to_string(first.port()) +
            ": Address already in use (the port is in use or the address cannot be bound)");
}

}  // namespace deniable::server
