// The server's front door: event-loop threads (one per core) own the
// connections, each its share, and read each request whole (head and body) before any worker thread sees it,
// so a client that sends slowly, or sends nothing on a kept-alive
// connection, holds a few kilobytes of memory and no thread. cpp-httplib's
// own loop gives each connection a thread for as long as it is open: 70
// clients sending one byte a second held all of its 64 workers.
//
// Per connection: a deadline to send a whole request (from its first byte),
// an idle timeout between kept-alive requests, a deadline to take the
// response. Framing limits (request_framing.h) are checked as bytes arrive:
// an oversized declared body is answered 413 at once, unread. Complete
// requests go to a fixed pool of workers through a bounded queue; a worker
// turns the request bytes into response bytes (the HTTP library, the
// handlers) and the loop writes them without blocking. When a client closes
// its connection while its request is being handled, the request's
// `client_gone` flag is set so long computations can stop.
//
// Requests that never block (runs_inline) are handled on the loop threads
// themselves, with no hand-over. A handler may answer later: the processor then
// returns `deferred` (with the bytes of the answer it expects, possibly
// none), and whoever has the answer calls the request's `resume`: with
// nullptr to send those prepared bytes, or with the answer, and then the loop
// runs the processor again on the same request with `resolution` set and
// sends what it returns. Report submission works so: no thread waits for the
// database commit, and a committed report costs one pass through the library.
#pragma once

#include <atomic>
#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <string>

#include "core/common/result.h"
#include "server/http/request_framing.h"

namespace deniable::server {

struct GateOptions {
  std::string host = "127.0.0.1";
  int port = 8080;  // 0: an ephemeral port
  std::size_t worker_threads = 32;
  std::size_t event_loops = 0;  // threads that own connections; 0: one per core
  std::chrono::milliseconds request_deadline{10000};  // head and body, from the request's first byte
  std::chrono::milliseconds idle_timeout{5000};       // a kept-alive connection between requests
  std::chrono::milliseconds write_deadline{10000};    // for the client to take a response
  std::size_t max_connections = 20000;                // also bounded by the open-file limit
  std::size_t max_buffered_bytes = 512u << 20;        // requests and responses held, all connections
  std::size_t max_queued_requests = 4096;             // complete requests waiting for a worker
  int listen_backlog = 4096;                          // the kernel caps it at net.core.somaxconn
  FramingLimits limits;
  // True for requests cheap enough to handle on a loop thread.
  std::function<bool(const RequestHead&)> runs_inline;
};

// A complete request, as the client framed it (see ForwardedHead for the head).
struct GateRequest {
  std::string bytes;
  RequestHead head;  // as the framer read it (names and values as sent, Expect and Accept-Encoding too)
  std::string remote_ip;
  int remote_port = 0;
  std::shared_ptr<std::atomic<bool>> client_gone;
  // For a deferred answer: resume(answer) from any thread, once; the
  // processor then sees the answer here. resume(nullptr): send the bytes the
  // deferred response prepared.
  std::function<void(std::shared_ptr<void> answer)> resume;
  std::shared_ptr<void> resolution;
};

struct GateResponse {
  std::string bytes;           // a whole HTTP response
  bool close_connection = false;
  bool deferred = false;       // no answer yet: the request's resume() brings it; `bytes` may hold a prepared one
};

// Turns a request into a response; runs on a worker thread.
using RequestProcessor = std::function<GateResponse(const GateRequest&)>;
// A whole HTTP response (with "Connection: close") for a request the gate refuses.
using RefusalRenderer = std::function<std::string(const FramingError& error, const std::string& target)>;

class ConnectionGate {
 public:
  ConnectionGate(GateOptions options, RequestProcessor process, RefusalRenderer refuse);
  ~ConnectionGate();
  ConnectionGate(const ConnectionGate&) = delete;
  ConnectionGate& operator=(const ConnectionGate&) = delete;

  // Creates the listening socket; returns the port (the real one for port 0).
  Result<int> Bind();
  // Runs the first event loop on this thread (the others on their own) until Stop(): then stops accepting,
  // lets requests in progress finish and their responses go out, and returns.
  void Serve();
  // Safe from any thread, also before Serve().
  void Stop();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace deniable::server
