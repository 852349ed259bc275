#include "server/http/request_framing.h"

#include <algorithm>
#include <cctype>

namespace deniable::server {
namespace {

std::string LowercaseFraming(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

std::string_view TrimFraming(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
  return text;
}

// RFC 9110 token characters, the only ones a header name may have.
bool IsTokenChar(unsigned char c) {
  return std::isalnum(c) || std::string_view("!#$%&'*+-.^_`|~").find(static_cast<char>(c)) != std::string_view::npos;
}

bool IsToken(std::string_view text) {
  return !text.empty() && std::all_of(text.begin(), text.end(), [](char c) { return IsTokenChar(c); });
}

// A decimal length of at most 18 digits (fits in size_t), else nullopt-like false.
bool ParseLength(std::string_view text, std::size_t& out) {
  if (text.empty() || text.size() > 18) return false;
  std::size_t value = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return false;
    value = value * 10 + static_cast<std::size_t>(c - '0');
  }
  out = value;
  return true;
}

// A chunk-size line's hexadecimal size (extensions after ';' ignored).
bool ParseChunkSize(std::string_view line, std::size_t& out) {
  line = TrimFraming(line.substr(0, line.find(';')));
  if (line.empty() || line.size() > 15) return false;
  std::size_t value = 0;
  for (char c : line) {
    const int digit = std::isdigit(static_cast<unsigned char>(c)) ? c - '0'
                      : (c >= 'a' && c <= 'f')                    ? c - 'a' + 10
                      : (c >= 'A' && c <= 'F')                    ? c - 'A' + 10
                                                                  : -1;
    if (digit < 0) return false;
    value = value * 16 + static_cast<std::size_t>(digit);
  }
  out = value;
  return true;
}

}  // namespace

void RequestFramer::Reset() { *this = RequestFramer(limits_); }

FramingError FramingErrorFor(WireCode code, std::string message) {
  const WireError& row = WireErrorOf(code);
  return FramingError{row.status, std::string(row.name), std::move(message)};
}

RequestFramer::State RequestFramer::Fail(WireCode code, std::string message) {
  error_ = FramingErrorFor(code, std::move(message));
  return State::kFailed;
}

RequestFramer::State RequestFramer::Feed(std::string_view bytes) {
  if (!head_parsed_) {
    const State state = ParseHead(bytes);
    if (state != State::kComplete) return state;
  }
  if (head_.chunked) return ParseChunks(bytes);
  const std::size_t total = head_.head_bytes + head_.content_length;
  if (bytes.size() < total) return State::kNeedMore;
  request_bytes_ = total;
  return State::kComplete;
}

RequestFramer::State RequestFramer::ParseHead(std::string_view bytes) {
  // Resume the search a few bytes back: the terminator may straddle two reads.
  const std::size_t from = scanned_ >= 3 ? scanned_ - 3 : 0;
  const std::size_t end = bytes.find("\r\n\r\n", from);
  const std::size_t line_end = bytes.find("\r\n");
  if (line_end == std::string_view::npos ? bytes.size() > limits_.max_request_line
                                         : line_end > limits_.max_request_line) {
    return Fail(WireCode::kUriTooLong,
                "request line: longer than " + std::to_string(limits_.max_request_line) + " bytes");
  }
  if (end == std::string_view::npos) {
    scanned_ = bytes.size();
    if (bytes.size() > limits_.max_head_bytes) {
      return Fail(WireCode::kHeadersTooLarge,
                  "request headers: larger than " + std::to_string(limits_.max_head_bytes) + " bytes");
    }
    return State::kNeedMore;
  }
  if (end + 4 > limits_.max_head_bytes) {
    return Fail(WireCode::kHeadersTooLarge,
                "request headers: larger than " + std::to_string(limits_.max_head_bytes) + " bytes");
  }
  head_.head_bytes = end + 4;

  const std::string_view request_line = bytes.substr(0, line_end);
  const std::size_t first_space = request_line.find(' ');
  const std::size_t last_space = request_line.rfind(' ');
  if (first_space == std::string_view::npos || last_space == first_space) {
    return Fail(WireCode::kBadRequest, "malformed HTTP request line");
  }
  head_.method = std::string(request_line.substr(0, first_space));
  head_.target = std::string(request_line.substr(first_space + 1, last_space - first_space - 1));
  const std::string_view version = request_line.substr(last_space + 1);
  if (!IsToken(head_.method) || head_.target.empty() || (version != "HTTP/1.1" && version != "HTTP/1.0")) {
    return Fail(WireCode::kBadRequest, "malformed HTTP request line");
  }

  bool has_length = false;
  bool has_encoding = false;
  std::size_t cursor = line_end + 2;
  while (cursor < end + 2) {
    const std::size_t next = bytes.find("\r\n", cursor);
    const std::string_view line = bytes.substr(cursor, next - cursor);
    cursor = next + 2;
    if (head_.headers.size() >= limits_.max_headers) {
      return Fail(WireCode::kHeadersTooLarge, "request headers: more than " + std::to_string(limits_.max_headers));
    }
    const std::size_t colon = line.find(':');
    if (colon == std::string_view::npos || !IsToken(line.substr(0, colon))) {
      return Fail(WireCode::kBadRequest, "malformed HTTP header line");
    }
    const std::string name = LowercaseFraming(line.substr(0, colon));
    const std::string_view value = TrimFraming(line.substr(colon + 1));
    head_.headers.emplace_back(std::string(line.substr(0, colon)), std::string(value));
    if (name == "content-length") {
      std::size_t length = 0;
      if (!ParseLength(value, length) || (has_length && length != head_.content_length)) {
        return Fail(WireCode::kBadRequest, "Content-Length: not one decimal number");
      }
      has_length = true;
      head_.content_length = length;
    } else if (name == "transfer-encoding") {
      if (LowercaseFraming(value) != "chunked" || head_.chunked) {
        return Fail(WireCode::kNotImplemented, "Transfer-Encoding: only \"chunked\" is supported");
      }
      head_.chunked = true;
    } else if (name == "content-encoding") {
      const std::string coding = LowercaseFraming(value);
      if (!coding.empty() && coding != "identity") {
        has_encoding = true;
      }
    } else if (name == "expect") {
      if (LowercaseFraming(value) != "100-continue") {
        return Fail(WireCode::kExpectationFailed, "Expect: only \"100-continue\" is supported");
      }
      head_.expects_continue = true;
    }
  }
  if (has_length && head_.chunked) {
    return Fail(WireCode::kBadRequest, "both Content-Length and Transfer-Encoding: send one");
  }
  if (has_encoding && (head_.chunked || head_.content_length > 0)) {
    return Fail(WireCode::kUnsupportedMediaType,
                "request body: Content-Encoding is not supported; send the body uncompressed (it is at most 1 MiB)");
  }
  if (head_.content_length > limits_.max_body_bytes) {
    return Fail(WireCode::kPayloadTooLarge, "request body: Content-Length " + std::to_string(head_.content_length) +
                                                " is larger than the limit of " +
                                                std::to_string(limits_.max_body_bytes) + " bytes (1 MiB)");
  }
  head_parsed_ = true;
  chunk_cursor_ = head_.head_bytes;
  return State::kComplete;
}

RequestFramer::State RequestFramer::ParseChunks(std::string_view bytes) {
  // The framing may add at most this much to the decoded body: chunk-size
  // lines, CRLFs and trailers. More is someone sending empty chunks forever.
  const std::size_t max_framing = 64 * 1024;
  for (;;) {
    if (chunk_cursor_ - head_.head_bytes > limits_.max_body_bytes + max_framing) {
      return Fail(WireCode::kPayloadTooLarge, "request body: chunked framing is larger than the limit");
    }
    if (in_chunk_data_) {
      const std::size_t available = bytes.size() - chunk_cursor_;
      if (available < chunk_remaining_) return State::kNeedMore;
      chunk_cursor_ += chunk_remaining_;
      if (bytes.substr(chunk_cursor_ - 2, 2) != "\r\n") {
        return Fail(WireCode::kBadRequest, "chunked body: a chunk does not end with CRLF");
      }
      in_chunk_data_ = false;
      continue;
    }
    const std::size_t line_end = bytes.find("\r\n", chunk_cursor_);
    if (line_end == std::string_view::npos) {
      if (bytes.size() - chunk_cursor_ > 1024) {
        return Fail(WireCode::kBadRequest, "chunked body: a chunk-size line is too long");
      }
      return State::kNeedMore;
    }
    const std::string_view line = bytes.substr(chunk_cursor_, line_end - chunk_cursor_);
    chunk_cursor_ = line_end + 2;
    if (in_trailers_) {
      if (line.empty()) {
        request_bytes_ = chunk_cursor_;
        return State::kComplete;
      }
      continue;
    }
    std::size_t size = 0;
    if (!ParseChunkSize(line, size)) return Fail(WireCode::kBadRequest, "chunked body: malformed chunk size");
    if (size == 0) {
      in_trailers_ = true;
      continue;
    }
    decoded_bytes_ += size;
    if (decoded_bytes_ > limits_.max_body_bytes) {
      return Fail(WireCode::kPayloadTooLarge, "request body: larger than the limit of " +
                                                  std::to_string(limits_.max_body_bytes) + " bytes (1 MiB)");
    }
    chunk_remaining_ = size + 2;
    in_chunk_data_ = true;
  }
}

std::string ForwardedHead(const RequestHead& head, std::string_view original_head) {
  std::string out(original_head.substr(0, original_head.find("\r\n") + 2));
  for (const auto& [name, value] : head.headers) {
    const std::string lower = LowercaseFraming(name);
    if (lower == "expect") continue;
    out += lower == "accept-encoding" ? std::string(kForwardedAcceptEncoding) : name;
    out += ": ";
    out += value;
    out += "\r\n";
  }
  out += "\r\n";
  return out;
}

}  // namespace deniable::server
