#include "server/http/connection_gate.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <iostream>
#include <mutex>
#include <thread>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "server/base/wake_batch.h"

namespace deniable::server {
namespace {

using Clock = std::chrono::steady_clock;

constexpr std::uint64_t kListenerTag = 0;
constexpr std::uint64_t kWakeTag = 1;
constexpr std::size_t kReadChunk = 64 * 1024;
// Deadlines are checked this often; a deadline is honoured to within it.
constexpr auto kTick = std::chrono::milliseconds(100);
constexpr auto kDrainTime = std::chrono::seconds(2);
constexpr std::size_t kMaxDrainBytes = 8u << 20;
// Events value of a connection epoll does not watch at all (EPOLLHUP and
// EPOLLERR cannot be masked, so a hung-up socket is removed, not muted).
constexpr std::uint32_t kUnwatched = ~0u;

// kDraining: the last response is sent and our side shut down; what the
// client still sends is read and dropped for a moment, so that closing does
// not reset the connection before the client has read the response (a
// client still uploading a refused body would otherwise never see the 413).
enum class Phase { kReading, kProcessing, kWriting, kDraining };

struct Connection {
  int fd = -1;
  std::string remote_ip;
  int remote_port = 0;
  Phase phase = Phase::kReading;
  std::string in;       // bytes of the current request (and any pipelined after it)
  RequestFramer framer;
  bool continue_sent = false;
  std::string out;      // the response being written
  std::size_t out_sent = 0;
  bool close_after_write = false;
  std::size_t drained = 0;
  Clock::time_point deadline;
  std::shared_ptr<std::atomic<bool>> client_gone = std::make_shared<std::atomic<bool>>(false);
  std::shared_ptr<GateRequest> request;  // while it is being handled
  GateResponse prepared;                  // a deferred request's prepared answer
  bool prepared_arrived = false;          // (from a worker, it may come after resume(nullptr))
  bool send_prepared = false;
  bool peer_finished = false;             // the client shut down its sending side
  std::uint32_t events = 0;               // what epoll watches for it now

  explicit Connection(FramingLimits limits) : framer(limits) {}
};

struct Job {
  std::uint64_t connection_id;
  std::shared_ptr<GateRequest> request;
};

struct Resumption {
  std::uint64_t connection_id;
  std::shared_ptr<void> answer;
};

struct Completion {
  std::uint64_t connection_id;
  GateResponse response;
  std::shared_ptr<GateRequest> request;  // which request of the connection it answers
};

std::pair<std::string, int> PeerAddress(const sockaddr_storage& address) {
  char host[NI_MAXHOST] = "";
  char port[NI_MAXSERV] = "";
  if (getnameinfo(reinterpret_cast<const sockaddr*>(&address), sizeof(address), host, sizeof(host), port, sizeof(port),
                  NI_NUMERICHOST | NI_NUMERICSERV) != 0) {
    return {"", 0};
  }
  return {host, std::atoi(port)};
}

// The soft open-file limit raised to the hard one: each connection is a descriptor.
std::size_t RaiseOpenFileLimit() {
  rlimit limit{};
  if (getrlimit(RLIMIT_NOFILE, &limit) != 0) return 1024;
  if (limit.rlim_cur < limit.rlim_max) {
    limit.rlim_cur = limit.rlim_max;
    (void)setrlimit(RLIMIT_NOFILE, &limit);
    (void)getrlimit(RLIMIT_NOFILE, &limit);
  }
  return static_cast<std::size_t>(limit.rlim_cur);
}

// A connection's id names its loop in the low bits, so an answer from any
// thread (a worker's, the report writer's) finds the loop that owns it.
constexpr unsigned kLoopBits = 8;
constexpr std::size_t kMaxLoops = std::size_t{1} << kLoopBits;
std::size_t LoopOf(std::uint64_t id) { return static_cast<std::size_t>(id & (kMaxLoops - 1)); }

// One loop per core, as nginx runs one worker per core: on one loop the
// sending, receiving and parsing of every connection queue behind each other
// (16 clients each waiting for a durable report kept a 2-core machine 43% idle).
// (A machine reporting more cores than a container may use gets at most
// kDefaultMaxLoops: an idle loop costs a thread and two descriptors.)
constexpr std::size_t kDefaultMaxLoops = 16;
std::size_t LoopCount(std::size_t wanted) {
  if (wanted == 0) wanted = std::min<std::size_t>(kDefaultMaxLoops, std::max(1u, std::thread::hardware_concurrency()));
  return std::clamp<std::size_t>(wanted, 1, kMaxLoops);
}

class EventLoop;

// What the loops share: the options, the processor, the workers' queue, and
// the server-wide bounds (bytes held, connections open) over all of them.
struct GateShared {
  GateOptions options;
  RequestProcessor process;
  RefusalRenderer refuse;
  std::atomic<bool> stopping{false};
  std::atomic<std::size_t> buffered_bytes{0};
  std::atomic<std::size_t> open_connections{0};
  std::size_t max_connections = 0;
  int listener = -1;  // closed by the accepting loop when stopping
  std::vector<std::unique_ptr<EventLoop>> loops;

  std::mutex jobs_mutex;
  std::condition_variable job_ready;
  std::deque<Job> jobs;
  bool workers_stop = false;
};

// One event loop: its thread owns its connections (reading, framing, inline
// handling, writing, deadlines). The first loop also accepts, and deals the
// new connections out to the loop holding the fewest.
class EventLoop {
 public:
  EventLoop(GateShared& shared, std::size_t index) : shared(shared), options(shared.options), index(index) {
    epoll = epoll_create1(EPOLL_CLOEXEC);
    wake = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
    if (epoll >= 0 && wake >= 0) Watch(wake, kWakeTag, EPOLLIN, EPOLL_CTL_ADD);
  }

  ~EventLoop() {
    for (auto& entry : connections) ::close(entry.second->fd);
    for (const Arrival& arrival : arrivals) Discard(arrival);
    for (int fd : {epoll, wake}) {
      if (fd >= 0) ::close(fd);
    }
  }

  EventLoop(const EventLoop&) = delete;
  EventLoop& operator=(const EventLoop&) = delete;

  bool Ready() const { return epoll >= 0 && wake >= 0; }
  std::size_t ConnectionCount() const { return connection_count.load(std::memory_order_relaxed); }

  // Runs until stopping and every connection of this loop is done.
  void Run() {
    accepting = index == 0 && shared.listener >= 0;
    if (accepting) Watch(shared.listener, kListenerTag, EPOLLIN, EPOLL_CTL_ADD);
    auto next_sweep = Clock::now() + kTick;
    bool open = true;
    std::vector<epoll_event> events(256);
    for (;;) {
      if (shared.stopping && open) {
        open = false;
        StopAccepting();
        CloseIdleConnections();
      }
      if (!open && connections.empty()) break;
      const int count = epoll_wait(epoll, events.data(), static_cast<int>(events.size()),
                                   ready.empty() ? static_cast<int>(kTick.count()) : 0);
      for (int i = 0; i < count; ++i) {
        const std::uint64_t tag = events[static_cast<std::size_t>(i)].data.u64;
        const std::uint32_t flags = events[static_cast<std::size_t>(i)].events;
        if (tag == kListenerTag) {
          if (accepting) AcceptAll();
        } else if (tag == kWakeTag) {
          std::uint64_t woken = 0;
          (void)!::read(wake, &woken, sizeof(woken));
          DeliverCompletions();
        } else {
          OnConnectionEvent(tag, flags);
        }
      }
      FrameReady();
      if (Clock::now() >= next_sweep) {
        ExpireDeadlines();
        if (shared.stopping) CloseIdleConnections();
        if (listener_paused && accepting) {
          listener_paused = false;
          Watch(shared.listener, kListenerTag, EPOLLIN, EPOLL_CTL_ADD);
        }
        next_sweep = Clock::now() + kTick;
      }
    }
  }

  // Any thread: a connection accepted by the first loop for this one: with
  // its place among the open connections taken (`reserved`), or to make room
  // for it, `declined` loops having had none.
  void Adopt(int fd, const sockaddr_storage& address, bool reserved, std::size_t declined) {
    Post([&] { arrivals.push_back({fd, address, reserved, declined}); });
  }

  // Any thread: a worker's response to a request of this loop's.
  void Complete(Completion completion) { Post([&] { completions.push_back(std::move(completion)); }); }

  // Any thread: the answer of a deferred request.
  void Resume(std::uint64_t id, std::shared_ptr<void> answer) {
    Post([&] { resumptions.push_back({id, std::move(answer)}); });
  }

  void Wake() {
    const std::uint64_t one = 1;
    (void)!::write(wake, &one, sizeof(one));
  }

 private:
  struct Arrival {
    int fd;
    sockaddr_storage address;
    bool reserved;
    std::size_t declined;
  };

  void Discard(const Arrival& arrival) {
    ::close(arrival.fd);
    if (arrival.reserved) --shared.open_connections;
  }

  // Queues work for this loop's thread: one wake-up for everything queued meanwhile.
  template <typename Push>
  void Post(Push push) {
    bool wake_loop = false;
    {
      std::lock_guard<std::mutex> lock(mutex);
      wake_loop = completions.empty() && resumptions.empty() && arrivals.empty();
      push();
    }
    // Answers handed out together (a committed batch of reports) wake this loop once.
    if (wake_loop && !WakeBatch::Defer(this, [this] { Wake(); })) Wake();
  }

  void Watch(int fd, std::uint64_t tag, std::uint32_t events, int operation) {
    epoll_event event{};
    event.events = events;
    event.data.u64 = tag;
    (void)epoll_ctl(epoll, operation, fd, &event);
  }

  // Changes what epoll watches for a connection only when it differs: in the
  // usual request (read, handle, write at once) that is never.
  void SetEvents(std::uint64_t id, Connection& connection, std::uint32_t events) {
    if (connection.events == events) return;
    const int operation = connection.events == kUnwatched ? EPOLL_CTL_ADD : EPOLL_CTL_MOD;
    connection.events = events;
    Watch(connection.fd, id, events, operation);
  }

  void Unwatch(Connection& connection) {
    if (connection.events == kUnwatched) return;
    connection.events = kUnwatched;
    (void)epoll_ctl(epoll, EPOLL_CTL_DEL, connection.fd, nullptr);
  }

  // --- accepting (the first loop) -------------------------------------------

  void StopAccepting() {
    if (!accepting) return;
    accepting = false;
    ::close(shared.listener);  // new clients are refused at once
    shared.listener = -1;
  }

  void AcceptAll() {
    for (;;) {
      sockaddr_storage address{};
      socklen_t length = sizeof(address);
      const int fd =
          accept4(shared.listener, reinterpret_cast<sockaddr*>(&address), &length, SOCK_NONBLOCK | SOCK_CLOEXEC);
      if (fd < 0) {
        if (errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM) {
          // The listener stays readable: without a pause the loop would spin. The backlog keeps the rest.
          listener_paused = true;
          (void)epoll_ctl(epoll, EPOLL_CTL_DEL, shared.listener, nullptr);
        }
        return;
      }
      const int yes = 1;
      (void)setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &yes, sizeof(yes));
      if (shared.open_connections.load() >= shared.max_connections) {
        MakeRoomFor(fd, address, 0);
        continue;
      }
      ++shared.open_connections;  // its place, taken now: the limit holds however the loops are dealt
      EventLoop* least = this;
      for (const auto& loop : shared.loops) {
        if (loop->ConnectionCount() < least->ConnectionCount()) least = loop.get();
      }
      if (least == this) {
        AddConnection(fd, address);
      } else {
        least->Adopt(fd, address, /*reserved=*/true, 0);
      }
    }
  }

  // At the connection limit: an idle connection of this loop makes way, or
  // the next loop is asked; when every loop has declined, it is turned away.
  void MakeRoomFor(int fd, const sockaddr_storage& address, std::size_t declined) {
    if (EvictIdleConnection()) {
      ++shared.open_connections;
      return AddConnection(fd, address);
    }
    if (declined + 1 >= shared.loops.size()) {
      ::close(fd);
      return;
    }
    shared.loops[(index + 1) % shared.loops.size()]->Adopt(fd, address, /*reserved=*/false, declined + 1);
  }

  // A connection whose place among the open ones is taken.
  void AddConnection(int fd, const sockaddr_storage& address) {
    auto connection = std::make_unique<Connection>(options.limits);
    connection->fd = fd;
    std::tie(connection->remote_ip, connection->remote_port) = PeerAddress(address);
    connection->deadline = Clock::now() + options.idle_timeout;
    const std::uint64_t id = (next_sequence++ << kLoopBits) | index;
    connection->events = EPOLLIN | EPOLLRDHUP;
    Watch(fd, id, connection->events, EPOLL_CTL_ADD);
    connections.emplace(id, std::move(connection));
    connection_count.store(connections.size(), std::memory_order_relaxed);
  }

  // At the connection limit a new client is worth more than an idle one.
  bool EvictIdleConnection() {
    for (auto it = connections.begin(); it != connections.end(); ++it) {
      if (it->second->phase == Phase::kReading && it->second->in.empty()) {
        Close(it->first);
        return true;
      }
    }
    return false;
  }

  void CloseIdleConnections() {
    std::vector<std::uint64_t> idle;
    for (const auto& [id, connection] : connections) {
      if (connection->phase == Phase::kReading && connection->in.empty()) idle.push_back(id);
    }
    for (std::uint64_t id : idle) Close(id);
  }

  void Close(std::uint64_t id) {
    auto it = connections.find(id);
    if (it == connections.end()) return;
    Connection& connection = *it->second;
    shared.buffered_bytes -= connection.in.size() + connection.out.size();
    ::close(connection.fd);  // also removes it from the epoll set
    connections.erase(it);
    --shared.open_connections;
    connection_count.store(connections.size(), std::memory_order_relaxed);
  }

  void OnConnectionEvent(std::uint64_t id, std::uint32_t flags) {
    auto it = connections.find(id);
    if (it == connections.end()) return;
    Connection& connection = *it->second;
    switch (connection.phase) {
      case Phase::kReading:
        ReadRequest(id, connection);
        break;
      case Phase::kProcessing:
        // A hang-up: the client has gone; the handler finishes (or gives up
        // early), then the connection is closed. Other bytes are a pipelined
        // next request, read ahead up to one request's worth.
        if (!(flags & (EPOLLRDHUP | EPOLLHUP | EPOLLERR)) && ReadAhead(id, connection)) break;
        // The client closed (or only shut down its side: the answer is still
        // sent, then the connection closed). Long computations may stop.
        connection.client_gone->store(true);
        connection.close_after_write = true;
        Unwatch(connection);
        break;
      case Phase::kWriting:
        if (flags & (EPOLLHUP | EPOLLERR)) {
          Close(id);
        } else {
          WriteResponse(id, connection);
        }
        break;
      case Phase::kDraining:
        Drain(id, connection);
        break;
    }
  }

  void StartDraining(std::uint64_t id, Connection& connection) {
    shared.buffered_bytes -= connection.in.size() + connection.out.size();
    connection.in.clear();
    connection.in.shrink_to_fit();
    connection.out.clear();
    connection.out.shrink_to_fit();
    connection.phase = Phase::kDraining;
    connection.deadline = Clock::now() + kDrainTime;
    ::shutdown(connection.fd, SHUT_WR);
    SetEvents(id, connection, EPOLLIN | EPOLLRDHUP);
    Drain(id, connection);
  }

  void Drain(std::uint64_t id, Connection& connection) {
    char chunk[kReadChunk];
    for (;;) {
      const ssize_t got = ::recv(connection.fd, chunk, sizeof(chunk), 0);
      if (got < 0 && errno == EINTR) continue;
      if (got < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return;
      if (got <= 0) return Close(id);
      connection.drained += static_cast<std::size_t>(got);
      // Enough: stop reading, and close at the drain deadline (closing now,
      // with the client still sending, would reset it before it reads the answer).
      if (connection.drained > kMaxDrainBytes) return Unwatch(connection);
    }
  }

  // While a request is handled: false when the client has closed. Past one
  // request's worth of read-ahead, only hang-ups are watched.
  bool ReadAhead(std::uint64_t id, Connection& connection) {
    const std::size_t cap = options.limits.max_head_bytes + options.limits.max_body_bytes + 64 * 1024;
    char chunk[kReadChunk];
    for (;;) {
      const std::size_t room = std::min({sizeof(chunk), cap - std::min(cap, connection.in.size()),
                                         options.max_buffered_bytes - std::min(options.max_buffered_bytes, shared.buffered_bytes.load())});
      if (room == 0) break;
      const ssize_t got = ::recv(connection.fd, chunk, room, 0);
      if (got == 0) return false;
      if (got < 0) return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR;
      connection.in.append(chunk, static_cast<std::size_t>(got));
      shared.buffered_bytes += static_cast<std::size_t>(got);
    }
    SetEvents(id, connection, EPOLLRDHUP);
    return true;
  }

  void ReadRequest(std::uint64_t id, Connection& connection) {
    char chunk[kReadChunk];
    for (std::size_t total = 0; total < 4 * kReadChunk;) {
      const ssize_t got = ::recv(connection.fd, chunk, sizeof(chunk), 0);
      if (got == 0) {
        // The client will send no more: answer a request it completed, then close.
        if (connection.in.empty()) return Close(id);
        connection.peer_finished = true;
        connection.close_after_write = true;
        Unwatch(connection);
        break;
      }
      if (got < 0) {
        if (errno == EAGAIN || errno == EWOULDBLOCK) break;
        if (errno == EINTR) continue;
        return Close(id);
      }
      if (shared.buffered_bytes + static_cast<std::size_t>(got) > options.max_buffered_bytes) {
        return Refuse(
            id, connection,
            FramingErrorFor(WireCode::kServerBusy, "the server is holding too much request data; retry shortly"));
      }
      if (connection.in.empty()) connection.deadline = Clock::now() + options.request_deadline;
      connection.in.append(chunk, static_cast<std::size_t>(got));
      shared.buffered_bytes += static_cast<std::size_t>(got);
      total += static_cast<std::size_t>(got);
      // A short read emptied the socket: asking again would cost a system
      // call that returns EAGAIN (half of all receives under load). epoll is
      // level-triggered, so bytes that arrive later are reported again.
      if (static_cast<std::size_t>(got) < sizeof(chunk)) break;
    }
    Frame(id, connection);
  }

  void Frame(std::uint64_t id, Connection& connection) {
    if (connection.in.empty()) return;
    switch (connection.framer.Feed(connection.in)) {
      case RequestFramer::State::kNeedMore:
        if (connection.peer_finished) return Close(id);  // it can never complete
        if (connection.framer.head_parsed() && connection.framer.head().expects_continue && !connection.continue_sent) {
          static constexpr char kContinue[] = "HTTP/1.1 100 Continue\r\n\r\n";
          connection.continue_sent = true;
          (void)!::send(connection.fd, kContinue, sizeof(kContinue) - 1, MSG_NOSIGNAL);
        }
        return;
      case RequestFramer::State::kFailed:
        return Refuse(id, connection, connection.framer.error());
      case RequestFramer::State::kComplete:
        return Dispatch(id, connection);
    }
  }

  void Dispatch(std::uint64_t id, Connection& connection) {
    const RequestHead& head = connection.framer.head();
    const std::size_t length = connection.framer.request_bytes();
    auto request = std::make_shared<GateRequest>();
    request->bytes = ForwardedHead(head, std::string_view(connection.in).substr(0, head.head_bytes));
    request->bytes.append(connection.in, head.head_bytes, length - head.head_bytes);
    request->head = head;
    request->remote_ip = connection.remote_ip;
    request->remote_port = connection.remote_port;
    request->client_gone = connection.client_gone;
    request->resume = [this, id](std::shared_ptr<void> answer) { Resume(id, std::move(answer)); };
    const bool inline_request = options.runs_inline && options.runs_inline(head);
    connection.in.erase(0, length);  // what is left was pipelined after this request
    shared.buffered_bytes -= length;
    connection.request = request;
    connection.phase = Phase::kProcessing;
    if (inline_request) return Handle(id, connection, shared.process(*request));
    bool queued = false;
    {
      std::lock_guard<std::mutex> lock(shared.jobs_mutex);
      if (shared.jobs.size() < options.max_queued_requests) {
        shared.jobs.push_back({id, request});
        queued = true;
      }
    }
    if (!queued) {
      connection.request.reset();
      return Refuse(id, connection,
                    FramingErrorFor(WireCode::kServerBusy, "too many requests are waiting; retry shortly"));
    }
    shared.job_ready.notify_one();
  }

  // What a processor returned for a connection's request (on the loop thread).
  void Handle(std::uint64_t id, Connection& connection, GateResponse response) {
    if (response.deferred) {  // still processing, until resumed
      connection.prepared = std::move(response);
      connection.prepared.deferred = false;
      connection.prepared_arrived = true;
      if (!connection.send_prepared) return;
      response = std::move(connection.prepared);
    }
    connection.request.reset();
    connection.prepared_arrived = false;
    connection.send_prepared = false;
    // Even when the client seems gone: it may only have shut down its sending
    // side. Writing to a closed socket fails, and the connection is closed.
    StartWriting(id, connection, std::move(response));
  }

  void Refuse(std::uint64_t id, Connection& connection, const FramingError& error) {
    const std::string target = connection.framer.head_parsed() ? connection.framer.head().target : "";
    shared.buffered_bytes -= connection.in.size();
    connection.in.clear();
    StartWriting(id, connection, {shared.refuse(error, target), true});
  }

  void DeliverCompletions() {
    std::vector<Arrival> arrived;
    std::vector<Completion> done;
    std::vector<Resumption> resumed;
    {
      std::lock_guard<std::mutex> lock(mutex);
      arrived.swap(arrivals);
      done.swap(completions);
      resumed.swap(resumptions);
    }
    for (const Arrival& arrival : arrived) {
      if (shared.stopping) {
        Discard(arrival);
      } else if (arrival.reserved) {
        AddConnection(arrival.fd, arrival.address);
      } else {
        MakeRoomFor(arrival.fd, arrival.address, arrival.declined);
      }
    }
    for (Completion& completion : done) {
      auto it = connections.find(completion.connection_id);
      // A deferred request may have been answered (resumed) before its worker returned.
      if (it == connections.end() || it->second->request != completion.request) continue;
      Handle(completion.connection_id, *it->second, std::move(completion.response));
    }
    for (Resumption& resumption : resumed) {
      auto it = connections.find(resumption.connection_id);
      if (it == connections.end() || !it->second->request) continue;
      Connection& connection = *it->second;
      if (!resumption.answer) {  // the prepared answer
        connection.send_prepared = true;
        if (connection.prepared_arrived) Handle(resumption.connection_id, connection, std::move(connection.prepared));
        continue;
      }
      connection.request->resolution = std::move(resumption.answer);
      Handle(resumption.connection_id, connection, shared.process(*connection.request));  // renders the answer: quick
    }
  }

  void StartWriting(std::uint64_t id, Connection& connection, GateResponse response) {
    connection.phase = Phase::kWriting;
    connection.close_after_write = connection.close_after_write || response.close_connection;
    shared.buffered_bytes += response.bytes.size();
    connection.out = std::move(response.bytes);
    connection.out_sent = 0;
    connection.deadline = Clock::now() + options.write_deadline;
    WriteResponse(id, connection);
  }

  void WriteResponse(std::uint64_t id, Connection& connection) {
    while (connection.out_sent < connection.out.size()) {
      const ssize_t sent = ::send(connection.fd, connection.out.data() + connection.out_sent,
                                  connection.out.size() - connection.out_sent, MSG_NOSIGNAL);
      if (sent < 0) {
        if (errno == EAGAIN || errno == EWOULDBLOCK) return SetEvents(id, connection, EPOLLOUT);  // resumes it
        if (errno == EINTR) continue;
        return Close(id);
      }
      connection.out_sent += static_cast<std::size_t>(sent);
    }
    if (connection.close_after_write || shared.stopping) return StartDraining(id, connection);
    shared.buffered_bytes -= connection.out.size();
    connection.out.clear();
    connection.out_sent = 0;
    connection.framer.Reset();
    connection.continue_sent = false;
    connection.phase = Phase::kReading;
    connection.deadline = Clock::now() + (connection.in.empty() ? options.idle_timeout : options.request_deadline);
    SetEvents(id, connection, EPOLLIN | EPOLLRDHUP);
    if (!connection.in.empty()) ready.push_back(id);  // a pipelined request: framed by the loop, in turn
  }

  void FrameReady() {
    std::vector<std::uint64_t> now;
    now.swap(ready);
    for (std::uint64_t id : now) {
      auto it = connections.find(id);
      if (it != connections.end() && it->second->phase == Phase::kReading) Frame(id, *it->second);
    }
  }

  void ExpireDeadlines() {
    const auto now = Clock::now();
    std::vector<std::uint64_t> expired;
    for (const auto& [id, connection] : connections) {
      if (connection->phase != Phase::kProcessing && connection->deadline <= now) expired.push_back(id);
    }
    for (std::uint64_t id : expired) {
      Connection& connection = *connections.at(id);
      if (connection.phase == Phase::kReading && !connection.in.empty()) {
        // Best effort: a client this slow may not read it either.
        const auto seconds = std::chrono::duration_cast<std::chrono::seconds>(options.request_deadline).count();
        const std::string text =
            shared.refuse(FramingErrorFor(WireCode::kRequestTimeout,
                                   "the request was not received whole within " + std::to_string(seconds) + " s"),
                   connection.framer.head_parsed() ? connection.framer.head().target : "");
        (void)!::send(connection.fd, text.data(), text.size(), MSG_NOSIGNAL | MSG_DONTWAIT);
      }
      Close(id);
    }
  }

  GateShared& shared;
  const GateOptions& options;
  const std::size_t index;
  int epoll = -1;
  int wake = -1;
  bool accepting = false;
  bool listener_paused = false;  // out of descriptors: accepting resumes at the next sweep
  std::unordered_map<std::uint64_t, std::unique_ptr<Connection>> connections;
  std::atomic<std::size_t> connection_count{0};  // connections.size(), for the accepting loop
  // Connections with a pipelined request to frame, taken in turn by the loop
  // (never by recursion: one client's pipeline must not deepen the stack).
  std::vector<std::uint64_t> ready;
  std::uint64_t next_sequence = 1;

  // What other threads hand this loop.
  std::mutex mutex;
  std::vector<Arrival> arrivals;
  std::vector<Completion> completions;
  std::vector<Resumption> resumptions;
};

}  // namespace

struct ConnectionGate::Impl {
  GateShared shared;
  std::vector<std::thread> workers;

  ~Impl() {
    StopWorkers();
    shared.loops.clear();
    if (shared.listener >= 0) ::close(shared.listener);
  }

  Result<int> Bind() {
    const GateOptions& options = shared.options;
    addrinfo hints{};
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
    addrinfo* found = nullptr;
    const std::string where = options.host + ":" + std::to_string(options.port);
    if (getaddrinfo(options.host.c_str(), std::to_string(options.port).c_str(), &hints, &found) != 0 || !found) {
      return MakeError("cannot listen on " + where + ": the address cannot be resolved");
    }
    int& listener = shared.listener;
    listener = socket(found->ai_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    const int yes = 1;
    const bool bound = listener >= 0 && setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof(yes)) == 0 &&
                       ::bind(listener, found->ai_addr, found->ai_addrlen) == 0 &&
                       ::listen(listener, options.listen_backlog) == 0;
    freeaddrinfo(found);
    if (!bound) {
      return MakeError("cannot listen on " + where + ": " + std::strerror(errno) +
                       " (the port is in use or the address cannot be bound)");
    }
    sockaddr_storage local{};
    socklen_t length = sizeof(local);
    getsockname(listener, reinterpret_cast<sockaddr*>(&local), &length);
    // Descriptors beyond the connections: the database, the listener, the loops' own.
    const std::size_t open_files = RaiseOpenFileLimit();
    shared.max_connections =
        std::min(options.max_connections, open_files > 256 ? open_files - 128 : open_files / 2);
    return PeerAddress(local).second;
  }

  void Serve() {
    for (const auto& loop : shared.loops) {
      if (!loop->Ready()) {
        std::cerr << "error: cannot start the event loop: " << std::strerror(errno) << std::endl;
        return;
      }
    }
    for (std::size_t i = 0; i < std::max<std::size_t>(1, shared.options.worker_threads); ++i) {
      workers.emplace_back([this] { WorkerLoop(); });
    }
    std::vector<std::thread> others;
    for (std::size_t i = 1; i < shared.loops.size(); ++i) {
      others.emplace_back([loop = shared.loops[i].get()] { loop->Run(); });
    }
    shared.loops[0]->Run();
    for (auto& thread : others) thread.join();
    StopWorkers();
  }

  void Stop() {
    shared.stopping = true;
    for (const auto& loop : shared.loops) loop->Wake();
  }

  void WorkerLoop() {
    for (;;) {
      Job job;
      {
        std::unique_lock<std::mutex> lock(shared.jobs_mutex);
        shared.job_ready.wait(lock, [this] { return shared.workers_stop || !shared.jobs.empty(); });
        if (shared.jobs.empty()) return;
        job = std::move(shared.jobs.front());
        shared.jobs.pop_front();
      }
      GateResponse response = shared.process(*job.request);
      shared.loops[LoopOf(job.connection_id)]->Complete({job.connection_id, std::move(response), job.request});
    }
  }

  void StopWorkers() {
    {
      std::lock_guard<std::mutex> lock(shared.jobs_mutex);
      shared.workers_stop = true;
    }
    shared.job_ready.notify_all();
    for (auto& worker : workers) {
      if (worker.joinable()) worker.join();
    }
    workers.clear();
  }
};

ConnectionGate::ConnectionGate(GateOptions options, RequestProcessor process, RefusalRenderer refuse)
    : impl_(new Impl) {
  GateShared& shared = impl_->shared;
  shared.options = std::move(options);
  shared.process = std::move(process);
  shared.refuse = std::move(refuse);
  const std::size_t count = LoopCount(shared.options.event_loops);
  for (std::size_t i = 0; i < count; ++i) shared.loops.push_back(std::make_unique<EventLoop>(shared, i));
}

ConnectionGate::~ConnectionGate() = default;

Result<int> ConnectionGate::Bind() { return impl_->Bind(); }

void ConnectionGate::Serve() {
  if (impl_->shared.listener < 0) return;
  impl_->Serve();
}

void ConnectionGate::Stop() { impl_->Stop(); }

}  // namespace deniable::server
