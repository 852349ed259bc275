// Where one HTTP/1.1 request ends in a connection's bytes, checked against
// the server's limits before any of it reaches cpp-httplib. The gate in front
// of the HTTP library (connection_gate.h) feeds it a connection's buffered
// bytes as they arrive; it answers "need more", "complete after N bytes", or
// the error to send at once (413 for a declared or decoded body over the
// limit, 431 for too many or too large headers, 415 for a compressed body...).
// Only the framing is parsed here (request line, header names, Content-Length,
// Transfer-Encoding, chunk sizes); cpp-httplib parses the request itself.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "server/http/wire_errors.h"

namespace deniable::server {

struct FramingLimits {
  std::size_t max_request_line = 8 * 1024;  // 414 beyond
  std::size_t max_head_bytes = 32 * 1024;   // request line and headers; 431 beyond
  std::size_t max_headers = 100;            // 431 beyond
  std::size_t max_body_bytes = 1024 * 1024; // decoded body; 413 beyond
};

struct FramingError {
  int status = 400;
  std::string code;     // e.g. "payload_too_large"
  std::string message;  // names what is wrong
};
// The error `code` (server/http/wire_errors.h) with its status and this message.
FramingError FramingErrorFor(WireCode code, std::string message);

// What the framer learnt of a request head.
struct RequestHead {
  std::string method;
  std::string target;  // as sent, for choosing the error format (/api: JSON)
  std::vector<std::pair<std::string, std::string>> headers;  // names as sent, values trimmed
  std::size_t head_bytes = 0;  // through the blank line
  bool chunked = false;
  std::size_t content_length = 0;
  bool expects_continue = false;  // "Expect: 100-continue"
};

class RequestFramer {
 public:
  explicit RequestFramer(FramingLimits limits) : limits_(limits) {}

  enum class State { kNeedMore, kComplete, kFailed };

  // `bytes` holds the connection's bytes from the request's first byte on
  // (the same prefix, possibly longer, on every call since Reset()).
  State Feed(std::string_view bytes);

  // After kComplete: the request's length in `bytes` (head and body).
  std::size_t request_bytes() const { return request_bytes_; }
  // After the head is parsed (kComplete, or kNeedMore while the body is awaited).
  bool head_parsed() const { return head_parsed_; }
  const RequestHead& head() const { return head_; }
  // After kFailed.
  const FramingError& error() const { return error_; }

  // Ready for the next request on the connection.
  void Reset();

 private:
  State ParseHead(std::string_view bytes);
  State ParseChunks(std::string_view bytes);
  State Fail(WireCode code, std::string message);

  FramingLimits limits_;
  RequestHead head_;
  bool head_parsed_ = false;
  std::size_t scanned_ = 0;  // bytes searched for the end of the head so far
  // Chunked bodies: where parsing resumes and how much has been decoded.
  std::size_t chunk_cursor_ = 0;
  std::size_t chunk_remaining_ = 0;  // data bytes (plus CRLF) left in the current chunk
  bool in_chunk_data_ = false;
  bool in_trailers_ = false;
  std::size_t decoded_bytes_ = 0;
  std::size_t request_bytes_ = 0;
  FramingError error_;
};

// The head as cpp-httplib should see it: "Expect" removed (the gate answers
// 100-continue itself) and "Accept-Encoding" renamed to kForwardedAcceptEncoding
// (the library linked here would otherwise compress every response itself, at
// its slowest Brotli setting; the server compresses what it serves, once).
std::string ForwardedHead(const RequestHead& head, std::string_view original_head);

inline constexpr const char* kForwardedAcceptEncoding = "X-Deniable-Accept-Encoding";

}  // namespace deniable::server
