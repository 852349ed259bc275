// Behind a load balancer every request comes from the balancer's address, so
// per-client limits (the estimation gate's one computation per client) would
// count all clients as one. The balancer names the client in
// X-Forwarded-For, but so can any client: the header is believed only from
// a peer configured as a trusted proxy (--trusted-proxy ADDR[,ADDR],
// DENIABLE_TRUSTED_PROXY), and then only its LAST hop, the address that
// proxy itself saw (earlier hops were written by whoever connected to it).
// From any other peer the header is ignored and the peer's address counts.
#pragma once

#include <array>
#include <string>
#include <vector>

#include "core/common/result.h"

namespace deniable::server {

class TrustedProxies {
 public:
  TrustedProxies() = default;  // none: X-Forwarded-For is never read
  // A comma-separated list of IPv4 or IPv6 addresses ("10.0.0.5,::1");
  // an error names the first entry that is not one (no names, no ranges).
  static Result<TrustedProxies> Parse(const std::string& list);

  bool empty() const { return addresses_.empty(); }
  // Whether the peer address (as the HTTP layer reports it) is one of them;
  // IPv4 and its IPv4-mapped IPv6 form are the same address.
  bool Contains(const std::string& address) const;

  // The address the request counts as coming from: the last hop of
  // X-Forwarded-For (`forwarded_for`, "" when absent) when the peer is a
  // trusted proxy and that hop is an IP address; otherwise the peer.
  std::string ClientAddress(const std::string& peer, const std::string& forwarded_for) const;

 private:
  std::vector<std::array<unsigned char, 16>> addresses_;
};

}  // namespace deniable::server
