// RequestFramer: where a request ends in a connection's bytes, and which
// request is refused before cpp-httplib sees it (status, code and message).
#include "server/http/request_framing.h"

#include <doctest/doctest.h>

#include <string>

namespace deniable::server {
namespace {

using State = RequestFramer::State;

FramingLimits SmallLimits() {
  FramingLimits limits;
  limits.max_request_line = 32;
  limits.max_head_bytes = 128;
  limits.max_headers = 3;
  limits.max_body_bytes = 10;
  return limits;
}

// Feeds `bytes` whole to a fresh framer.
State FeedOnce(RequestFramer& framer, const std::string& bytes) { return framer.Feed(bytes); }

// Feeds every prefix of `bytes` in turn, as a connection receiving one byte
// at a time would; returns the first state other than kNeedMore (kNeedMore
// if none) and the prefix length it came at.
std::pair<State, std::size_t> FeedByteByByte(RequestFramer& framer, const std::string& bytes) {
  for (std::size_t n = 1; n <= bytes.size(); ++n) {
    const State state = framer.Feed(std::string_view(bytes).substr(0, n));
    if (state != State::kNeedMore) return {state, n};
  }
  return {State::kNeedMore, bytes.size()};
}

void CheckRefused(const std::string& bytes, int status, const std::string& code, const std::string& message,
                  FramingLimits limits = {}) {
  CAPTURE(bytes);
  RequestFramer framer(limits);
  REQUIRE(FeedOnce(framer, bytes) == State::kFailed);
  CHECK(framer.error().status == status);
  CHECK(framer.error().code == code);
  CHECK(framer.error().message == message);
  // The same verdict when the bytes arrive one at a time.
  RequestFramer slow(limits);
  CHECK(FeedByteByByte(slow, bytes).first == State::kFailed);
  CHECK(slow.error().status == status);
  CHECK(slow.error().message == message);
}

const std::string kBadRequestLine = "malformed HTTP request line";
const std::string kBadHeaderLine = "malformed HTTP header line";

}  // namespace

TEST_CASE("framing: a request without a body ends at the blank line; its head is read as sent") {
  const std::string request = "GET /api/surveys?x=1 HTTP/1.1\r\nHost:   example \t\r\nX-Empty:\r\n\r\n";
  RequestFramer framer({});
  REQUIRE(FeedOnce(framer, request + "GET /next HTTP/1.1\r\n") == State::kComplete);
  CHECK(framer.request_bytes() == request.size());
  CHECK(framer.head_parsed());
  const RequestHead& head = framer.head();
  CHECK(head.method == "GET");
  CHECK(head.target == "/api/surveys?x=1");
  REQUIRE(head.headers.size() == 2);
  CHECK(head.headers[0] == std::pair<std::string, std::string>{"Host", "example"});
  CHECK(head.headers[1] == std::pair<std::string, std::string>{"X-Empty", ""});
  CHECK(head.head_bytes == request.size());
  CHECK_FALSE(head.chunked);
  CHECK(head.content_length == 0);
  CHECK_FALSE(head.expects_continue);
  // HTTP/1.0 is framed the same way.
  RequestFramer old({});
  CHECK(FeedOnce(old, "GET / HTTP/1.0\r\n\r\n") == State::kComplete);
}

TEST_CASE("framing: a Content-Length body is awaited byte by byte, and pipelined bytes after it are not counted") {
  const std::string head = "POST /api/x HTTP/1.1\r\ncontent-length: 5\r\n\r\n";
  const std::string request = head + "hello";
  RequestFramer framer({});
  for (std::size_t n = 1; n < request.size(); ++n) {
    CAPTURE(n);
    REQUIRE(framer.Feed(std::string_view(request).substr(0, n)) == State::kNeedMore);
    // The head is known once its blank line has arrived, before the body.
    CHECK(framer.head_parsed() == (n >= head.size()));
  }
  REQUIRE(framer.Feed(request + "GET / HTTP/1.1\r\n\r\n") == State::kComplete);
  CHECK(framer.request_bytes() == request.size());
  CHECK(framer.head().content_length == 5);
  CHECK(framer.head().head_bytes == head.size());
}

TEST_CASE("framing: Reset() readies the framer for the connection's next request") {
  RequestFramer framer({});
  REQUIRE(framer.Feed("POST /a HTTP/1.1\r\nContent-Length: 1\r\nExpect: 100-continue\r\n\r\nx") == State::kComplete);
  framer.Reset();
  CHECK_FALSE(framer.head_parsed());
  REQUIRE(framer.Feed("GET /b HTTP/1.1\r\n\r\n") == State::kComplete);
  CHECK(framer.head().target == "/b");
  CHECK(framer.head().headers.empty());
  CHECK(framer.head().content_length == 0);
  CHECK_FALSE(framer.head().expects_continue);
  CHECK(framer.request_bytes() == 19);
}

TEST_CASE("framing: Content-Length must be one decimal number, repeated only with the same value") {
  RequestFramer same({});
  REQUIRE(FeedOnce(same, "POST / HTTP/1.1\r\nContent-Length: 3\r\nContent-Length: 3\r\n\r\nabc") == State::kComplete);
  CHECK(same.head().content_length == 3);
  const std::string message = "Content-Length: not one decimal number";
  for (const char* value : {"3\r\nContent-Length: 4", "abc", "-1", "+5", "3, 3", "",
                            "1000000000000000000"}) {  // 19 digits could overflow: malformed, not wrapped around
    CheckRefused(std::string("POST / HTTP/1.1\r\nContent-Length: ") + value + "\r\n\r\n", 400, "bad_request", message);
  }
  // 18 digits parse, and are then over the body limit.
  CheckRefused("POST / HTTP/1.1\r\nContent-Length: 999999999999999999\r\n\r\n", 413, "payload_too_large",
               "request body: Content-Length 999999999999999999 is larger than the limit of 1048576 bytes (1 MiB)");
}

TEST_CASE("framing: Content-Length together with Transfer-Encoding is refused, in either order") {
  const std::string message = "both Content-Length and Transfer-Encoding: send one";
  CheckRefused("POST / HTTP/1.1\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n", 400, "bad_request", message);
  CheckRefused("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\nContent-Length: 5\r\n\r\n", 400, "bad_request", message);
}

TEST_CASE("framing: Transfer-Encoding other than one \"chunked\" is not implemented") {
  const std::string message = "Transfer-Encoding: only \"chunked\" is supported";
  CheckRefused("POST / HTTP/1.1\r\nTransfer-Encoding: gzip\r\n\r\n", 501, "not_implemented", message);
  CheckRefused("POST / HTTP/1.1\r\nTransfer-Encoding: gzip, chunked\r\n\r\n", 501, "not_implemented", message);
  CheckRefused("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n", 501,
               "not_implemented", message);
  RequestFramer framer({});
  CHECK(FeedOnce(framer, "POST / HTTP/1.1\r\nTransfer-Encoding: Chunked\r\n\r\n0\r\n\r\n") == State::kComplete);
  CHECK(framer.head().chunked);
}

TEST_CASE("framing: a compressed request body is refused with 415; Content-Encoding without a body passes") {
  const std::string message =
      "request body: Content-Encoding is not supported; send the body uncompressed (it is at most 1 MiB)";
  CheckRefused("POST / HTTP/1.1\r\nContent-Encoding: gzip\r\nContent-Length: 3\r\n\r\n", 415, "unsupported_media_type",
               message);
  CheckRefused("POST / HTTP/1.1\r\nContent-Encoding: BR\r\nTransfer-Encoding: chunked\r\n\r\n", 415,
               "unsupported_media_type", message);
  // The refusal comes before the (over-limit) length is looked at.
  CheckRefused("POST / HTTP/1.1\r\nContent-Encoding: gzip\r\nContent-Length: 5000000\r\n\r\n", 415,
               "unsupported_media_type", message);
  for (const std::string passes : {"POST / HTTP/1.1\r\nContent-Encoding: gzip\r\n\r\n",
                                   "POST / HTTP/1.1\r\nContent-Encoding: gzip\r\nContent-Length: 0\r\n\r\n",
                                   "POST / HTTP/1.1\r\nContent-Encoding: Identity\r\nContent-Length: 1\r\n\r\nx"}) {
    CAPTURE(passes);
    RequestFramer framer({});
    CHECK(FeedOnce(framer, passes) == State::kComplete);
  }
}

TEST_CASE("framing: Expect 100-continue is noted (the gate answers it); any other expectation is refused with 417") {
  RequestFramer framer({});
  REQUIRE(FeedOnce(framer, "POST / HTTP/1.1\r\nExpect: 100-Continue\r\nContent-Length: 2\r\n\r\n") == State::kNeedMore);
  CHECK(framer.head_parsed());
  CHECK(framer.head().expects_continue);
  CheckRefused("POST / HTTP/1.1\r\nExpect: 200-ok\r\n\r\n", 417, "expectation_failed",
               "Expect: only \"100-continue\" is supported");
}

TEST_CASE("framing: the request line is limited (414), also before its end has arrived") {
  const FramingLimits limits = SmallLimits();  // 32 bytes
  const std::string line32 = "GET /" + std::string(18, 'a') + " HTTP/1.1";
  REQUIRE(line32.size() == 32);
  RequestFramer at_limit(limits);
  CHECK(FeedOnce(at_limit, line32 + "\r\n\r\n") == State::kComplete);
  const std::string message = "request line: longer than 32 bytes";
  CheckRefused("GET /" + std::string(19, 'a') + " HTTP/1.1\r\n\r\n", 414, "uri_too_long", message, limits);
  // 33 bytes with no line end yet: refused without waiting for the rest.
  RequestFramer early(limits);
  CHECK(FeedOnce(early, "GET /" + std::string(28, 'a')) == State::kFailed);
  CHECK(early.error().status == 414);
  RequestFramer waiting(limits);
  CHECK(FeedOnce(waiting, "GET /" + std::string(27, 'a')) == State::kNeedMore);
}

TEST_CASE("framing: the head is limited in bytes (431), also before its end has arrived") {
  const FramingLimits limits = SmallLimits();  // 128 bytes of head
  const std::string start = "GET / HTTP/1.1\r\nX: ";
  const std::string head128 = start + std::string(128 - start.size() - 4, 'v') + "\r\n\r\n";
  REQUIRE(head128.size() == 128);
  RequestFramer at_limit(limits);
  CHECK(FeedOnce(at_limit, head128) == State::kComplete);
  const std::string message = "request headers: larger than 128 bytes";
  CheckRefused(start + std::string(128 - start.size() - 3, 'v') + "\r\n\r\n", 431, "headers_too_large", message, limits);
  RequestFramer unterminated(limits);
  CHECK(FeedOnce(unterminated, start + std::string(128 - start.size(), 'v')) == State::kNeedMore);
  CHECK(FeedOnce(unterminated, start + std::string(129 - start.size(), 'v')) == State::kFailed);
  CHECK(unterminated.error().status == 431);
  CHECK(unterminated.error().message == message);
}

TEST_CASE("framing: at most max_headers header lines (431)") {
  const FramingLimits limits = SmallLimits();  // 3 headers
  RequestFramer three(limits);
  CHECK(FeedOnce(three, "GET / HTTP/1.1\r\nA: 1\r\nB: 2\r\nC: 3\r\n\r\n") == State::kComplete);
  CheckRefused("GET / HTTP/1.1\r\nA: 1\r\nB: 2\r\nC: 3\r\nD: 4\r\n\r\n", 431, "headers_too_large",
               "request headers: more than 3", limits);
}

TEST_CASE("framing: malformed request lines and header lines are refused with 400") {
  for (const char* line : {"GET", "GET /", "GET  HTTP/1.1" /* empty target */, "GET / HTTP/2.0", "GET / http/1.1",
                           "G(T / HTTP/1.1"}) {
    CheckRefused(std::string(line) + "\r\n\r\n", 400, "bad_request", kBadRequestLine);
  }
  // The last: obsolete line folding (a continuation line) is refused, not joined.
  for (const char* header : {"No colon", "Bad Name: x", ": x", "A: 1\r\n folded"}) {
    CheckRefused(std::string("GET / HTTP/1.1\r\n") + header + "\r\n\r\n", 400, "bad_request", kBadHeaderLine);
  }
}

TEST_CASE("framing: a declared body over the limit is refused with 413 before it is read; at the limit it is awaited") {
  const FramingLimits limits = SmallLimits();  // 10 bytes of body
  CheckRefused("POST / HTTP/1.1\r\nContent-Length: 11\r\n\r\n", 413, "payload_too_large",
               "request body: Content-Length 11 is larger than the limit of 10 bytes (1 MiB)", limits);
  const std::string request = "POST / HTTP/1.1\r\nContent-Length: 10\r\n\r\n0123456789";
  RequestFramer framer(limits);
  CHECK(FeedByteByByte(framer, request) == std::pair<State, std::size_t>{State::kComplete, request.size()});
}

TEST_CASE("framing: a chunked body ends after the last chunk and its trailers, whichever way it arrives") {
  const std::string head = "POST /api/x HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n";
  for (const std::string body : {std::string("5\r\nhello\r\n0\r\n\r\n"),
                                 std::string("2;name=value\r\nhe\r\nA\r\n0123456789\r\n0\r\n\r\n"),
                                 std::string("3\r\nabc\r\n0\r\nX-Trailer: 1\r\nY: 2\r\n\r\n"),
                                 std::string("0\r\n\r\n")}) {
    CAPTURE(body);
    const std::string request = head + body;
    RequestFramer whole({});
    REQUIRE(FeedOnce(whole, request + "GET / HTTP/1.1\r\n\r\n") == State::kComplete);
    CHECK(whole.request_bytes() == request.size());
    CHECK(whole.head().chunked);
    CHECK(whole.head().head_bytes == head.size());
    RequestFramer slow({});
    CHECK(FeedByteByByte(slow, request) == std::pair<State, std::size_t>{State::kComplete, request.size()});
    CHECK(slow.request_bytes() == request.size());
  }
}

TEST_CASE("framing: malformed chunked bodies are refused with 400") {
  const std::string head = "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n";
  const std::string size = "chunked body: malformed chunk size";
  for (const std::string& line : {std::string("zz"), std::string(), std::string("-1"),
                                  std::string(16, '0') + "1" /* more than 15 hex digits */}) {
    CheckRefused(head + line + "\r\n", 400, "bad_request", size);
  }
  CheckRefused(head + "3\r\nabcd\r\n", 400, "bad_request", "chunked body: a chunk does not end with CRLF");
  const std::string long_line = "chunked body: a chunk-size line is too long";
  CheckRefused(head + "1;" + std::string(1023, 'x'), 400, "bad_request", long_line);
  RequestFramer at_limit({});
  CHECK(FeedOnce(at_limit, head + "1;" + std::string(1022, 'x')) == State::kNeedMore);
}

TEST_CASE("framing: a chunked body over the limit is refused with 413, counting decoded bytes, then framing bytes") {
  const FramingLimits limits = SmallLimits();  // 10 bytes of body
  const std::string head = "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n";
  RequestFramer ten(limits);
  CHECK(FeedOnce(ten, head + "6\r\n012345\r\n4\r\n6789\r\n0\r\n\r\n") == State::kComplete);
  // The eleventh byte is refused when its chunk's size is read, before its data arrives.
  CheckRefused(head + "6\r\n012345\r\n5\r\n", 413, "payload_too_large",
               "request body: larger than the limit of 10 bytes (1 MiB)", limits);
  // Endless trailers (or chunk extensions) carry no data but are bounded too:
  // at most 64 KiB of framing beyond the body limit.
  std::string trailers = head + "0\r\n";
  while (trailers.size() - head.size() <= 10 + 64 * 1024) trailers += "X: y\r\n";
  RequestFramer framer(limits);
  REQUIRE(FeedOnce(framer, trailers) == State::kFailed);
  CHECK(framer.error().status == 413);
  CHECK(framer.error().code == "payload_too_large");
  CHECK(framer.error().message == "request body: chunked framing is larger than the limit");
}

TEST_CASE("framing: the forwarded head drops Expect and hides Accept-Encoding from the HTTP library") {
  const std::string original =
      "POST /api/x HTTP/1.1\r\nHost: h\r\nexpect: 100-continue\r\nACCEPT-ENCODING:  br, gzip \r\n"
      "Content-Length: 0\r\n\r\n";
  RequestFramer framer({});
  REQUIRE(FeedOnce(framer, original) == State::kComplete);
  CHECK(ForwardedHead(framer.head(), original) ==
        "POST /api/x HTTP/1.1\r\nHost: h\r\nX-Deniable-Accept-Encoding: br, gzip\r\nContent-Length: 0\r\n\r\n");
  CHECK(std::string(kForwardedAcceptEncoding) == "X-Deniable-Accept-Encoding");
}

}  // namespace deniable::server
