// A loopback HTTP client for the server tests: a blocking socket whose reads
// give up after two seconds, so a test that waits for an answer that never
// comes fails instead of hanging.
#pragma once

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <string>

namespace deniable::server::testing {

// Connected to 127.0.0.1:port.
class Client {
 public:
  explicit Client(int port) {
    fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
    timeval timeout{2, 0};
    ::setsockopt(fd_, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof(timeout));
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_port = htons(static_cast<std::uint16_t>(port));
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    REQUIRE(::connect(fd_, reinterpret_cast<sockaddr*>(&address), sizeof(address)) == 0);
  }
  ~Client() { Close(); }
  void Close() {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
  }
  // Sends no more (a half-close): the other side reads the end of the stream.
  void ShutdownWrite() { ::shutdown(fd_, SHUT_WR); }
  void Send(const std::string& bytes) {
    REQUIRE(::send(fd_, bytes.data(), bytes.size(), MSG_NOSIGNAL) == static_cast<ssize_t>(bytes.size()));
  }
  // Exactly `count` bytes, or fewer when the connection closes or the read times out.
  std::string Read(std::size_t count) {
    std::string in;
    char chunk[4096];
    while (in.size() < count) {
      const ssize_t got = ::recv(fd_, chunk, std::min(sizeof(chunk), count - in.size()), 0);
      if (got <= 0) break;
      in.append(chunk, static_cast<std::size_t>(got));
    }
    return in;
  }
  // Up to and including the first "\r\n\r\n" (a response's head), read a byte at a time.
  std::string ReadHead() {
    std::string in;
    char c = 0;
    while (in.size() < 4 || in.compare(in.size() - 4, 4, "\r\n\r\n") != 0) {
      if (::recv(fd_, &c, 1, 0) != 1) break;
      in.push_back(c);
    }
    return in;
  }
  // Everything until the gate closes the connection; `closed` false on a timeout.
  std::string ReadToEnd(bool* closed = nullptr) {
    std::string in;
    char chunk[4096];
    for (;;) {
      const ssize_t got = ::recv(fd_, chunk, sizeof(chunk), 0);
      if (got <= 0) {
        if (closed) *closed = got == 0;
        return in;
      }
      in.append(chunk, static_cast<std::size_t>(got));
    }
  }

 private:
  int fd_ = -1;
};

}  // namespace deniable::server::testing
