// The client a request counts as for per-client limits: X-Forwarded-For is
// read (its last hop) only from a configured trusted proxy, never from anyone
// else (server/http/trusted_proxies.h).
#include "server/http/trusted_proxies.h"

#include <doctest/doctest.h>

namespace deniable::server {

TEST_CASE("TrustedProxies: parses addresses, refuses names and ranges with a message") {
  auto proxies = TrustedProxies::Parse("10.0.0.5, ::1");
  REQUIRE(proxies.ok());
  CHECK(proxies->Contains("10.0.0.5"));
  CHECK(proxies->Contains("::ffff:10.0.0.5"));  // the same peer on a dual-stack socket
  CHECK(proxies->Contains("::1"));
  CHECK_FALSE(proxies->Contains("10.0.0.6"));
  CHECK_FALSE(proxies->Contains(""));
  for (const char* bad : {"", "lb.example.org", "10.0.0.0/8", "10.0.0.5,", "10.0.0.256"}) {
    CAPTURE(bad);
    CHECK_FALSE(TrustedProxies::Parse(bad).ok());
  }
  CHECK(TrustedProxies::Parse("lb.example.org").error() ==
        "\"lb.example.org\" is not an IP address (expected addresses such as 10.0.0.5 or ::1, comma-separated; no "
        "host names or ranges)");
}

TEST_CASE("TrustedProxies: the last X-Forwarded-For hop from a trusted peer, the peer otherwise") {
  const TrustedProxies none;
  auto trusted = TrustedProxies::Parse("10.0.0.5");
  REQUIRE(trusted.ok());
  // Nobody trusted: the header is ignored, whoever sends it.
  CHECK(none.ClientAddress("10.0.0.5", "198.51.100.7") == "10.0.0.5");
  // A peer that is not the proxy cannot choose its client key by sending the header.
  CHECK(trusted->ClientAddress("203.0.113.9", "198.51.100.7") == "203.0.113.9");
  // From the proxy: its hop (the last); what the client wrote before it is not believed.
  CHECK(trusted->ClientAddress("10.0.0.5", "198.51.100.7") == "198.51.100.7");
  CHECK(trusted->ClientAddress("10.0.0.5", "1.2.3.4, 198.51.100.7") == "198.51.100.7");
  CHECK(trusted->ClientAddress("::ffff:10.0.0.5", "2001:db8::1") == "2001:db8::1");
  // No header, or a hop that is not an address: the proxy's own address.
  CHECK(trusted->ClientAddress("10.0.0.5", "") == "10.0.0.5");
  CHECK(trusted->ClientAddress("10.0.0.5", "198.51.100.7, unknown") == "10.0.0.5");
}

}  // namespace deniable::server
