#include "server/http/trusted_proxies.h"

#include <arpa/inet.h>

#include <algorithm>
#include <optional>

namespace deniable::server {
namespace {

std::string TrimAddress(const std::string& text) {
  const auto first = text.find_first_not_of(" \t");
  if (first == std::string::npos) return "";
  const auto last = text.find_last_not_of(" \t");
  return text.substr(first, last - first + 1);
}

// An IPv4 address as its IPv4-mapped IPv6 form, so both spellings compare equal.
std::optional<std::array<unsigned char, 16>> ParseAddress(const std::string& text) {
  std::array<unsigned char, 16> bytes{};
  if (inet_pton(AF_INET6, text.c_str(), bytes.data()) == 1) return bytes;
  unsigned char v4[4];
  if (inet_pton(AF_INET, text.c_str(), v4) != 1) return std::nullopt;
  bytes.fill(0);
  bytes[10] = bytes[11] = 0xff;
  std::copy(v4, v4 + 4, bytes.begin() + 12);
  return bytes;
}

}  // namespace

Result<TrustedProxies> TrustedProxies::Parse(const std::string& list) {
  TrustedProxies proxies;
  if (TrimAddress(list).empty()) return MakeError("no address given (expected ADDR[,ADDR...])");
  std::size_t start = 0;
  for (;;) {
    const std::size_t comma = list.find(',', start);
    const std::string address = TrimAddress(list.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
    const auto bytes = ParseAddress(address);
    if (!bytes) {
      return MakeError("\"" + address + "\" is not an IP address (expected addresses such as 10.0.0.5 or ::1, "
                       "comma-separated; no host names or ranges)");
    }
    proxies.addresses_.push_back(*bytes);
    if (comma == std::string::npos) return proxies;
    start = comma + 1;
  }
}

bool TrustedProxies::Contains(const std::string& address) const {
  const auto bytes = ParseAddress(address);
  return bytes && std::find(addresses_.begin(), addresses_.end(), *bytes) != addresses_.end();
}

std::string TrustedProxies::ClientAddress(const std::string& peer, const std::string& forwarded_for) const {
  if (forwarded_for.empty() || !Contains(peer)) return peer;
  const auto comma = forwarded_for.find_last_of(',');
  const std::string last = TrimAddress(comma == std::string::npos ? forwarded_for : forwarded_for.substr(comma + 1));
  // A hop the proxy did not write as an address ("unknown", a port): the proxy's own address counts.
  return ParseAddress(last) ? last : peer;
}

}  // namespace deniable::server
