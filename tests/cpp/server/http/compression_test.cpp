// Response compression: which coding a request's Accept-Encoding chooses,
// that the gzip stream is a real gzip stream of the input, and when a
// per-request body is gzipped.
#include "server/http/compression.h"

#include <zlib.h>

#include <doctest/doctest.h>

#include <string>

namespace deniable::server {
namespace {

// Inflates a gzip stream (test side: the server never decompresses).
std::string Gunzip(const std::string& gzip) {
  z_stream stream{};
  REQUIRE(inflateInit2(&stream, 15 + 16) == Z_OK);
  std::string out(1 << 20, '\0');
  stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(gzip.data()));
  stream.avail_in = static_cast<uInt>(gzip.size());
  stream.next_out = reinterpret_cast<Bytef*>(out.data());
  stream.avail_out = static_cast<uInt>(out.size());
  const int result = inflate(&stream, Z_FINISH);
  out.resize(stream.total_out);
  inflateEnd(&stream);
  CHECK(result == Z_STREAM_END);
  return out;
}

std::string Repetitive(std::size_t bytes) {
  std::string text;
  while (text.size() < bytes) text += "{\"estimate\":0.25,\"interval\":[0.1,0.4]},";
  return text.substr(0, bytes);
}

}  // namespace

TEST_CASE("compression: Accept-Encoding chooses the acceptable coding with the higher q-value, Brotli on a tie") {
  using C = ContentCoding;
  struct Case {
    const char* header;
    C both;        // Brotli and gzip variants exist
    C gzip_only;   // only gzip exists
  };
  for (const Case& c : {Case{"", C::kIdentity, C::kIdentity},
                        Case{"gzip", C::kGzip, C::kGzip},
                        Case{"br", C::kBrotli, C::kIdentity},
                        Case{"gzip, br", C::kBrotli, C::kGzip},
                        Case{"gzip;q=1.0, br;q=0.5", C::kGzip, C::kGzip},
                        Case{"br;q=0.8, gzip;q=0.8", C::kBrotli, C::kGzip},
                        Case{"br;q=0, gzip", C::kGzip, C::kGzip},
                        Case{"gzip;q=0", C::kIdentity, C::kIdentity},
                        Case{"*", C::kBrotli, C::kGzip},
                        Case{"*;q=0.5, br;q=0.2", C::kGzip, C::kGzip},
                        Case{"*, gzip;q=0", C::kBrotli, C::kIdentity},
                        Case{"x-gzip", C::kGzip, C::kGzip},
                        Case{"GZIP , BR", C::kBrotli, C::kGzip},
                        Case{"identity", C::kIdentity, C::kIdentity},
                        Case{"br;q=1.5, gzip", C::kGzip, C::kGzip},    // malformed q: the element is ignored
                        Case{"br;q=0.1234, gzip;q=0.1", C::kGzip, C::kGzip},  // more than 3 decimals: malformed
                        Case{"br;q=0.001", C::kBrotli, C::kIdentity}}) {
    CAPTURE(c.header);
    CHECK(ChooseContentCoding(c.header, true, true) == c.both);
    CHECK(ChooseContentCoding(c.header, false, true) == c.gzip_only);
    CHECK(ChooseContentCoding(c.header, false, false) == C::kIdentity);
  }
  CHECK(std::string(ContentCodingName(C::kBrotli)) == "br");
  CHECK(std::string(ContentCodingName(C::kGzip)) == "gzip");
  CHECK(std::string(ContentCodingName(C::kIdentity)).empty());
}

TEST_CASE("compression: a gzip stream inflates to its input; invalid levels and qualities give nullopt") {
  const std::string text = Repetitive(20000);
  for (int level : {1, 6, 9}) {
    CAPTURE(level);
    const auto gzip = GzipCompress(text, level);
    REQUIRE(gzip.has_value());
    CHECK(gzip->substr(0, 2) == "\x1f\x8b");  // the gzip magic, not a zlib stream
    CHECK(gzip->size() < text.size() / 4);
    CHECK(Gunzip(*gzip) == text);
  }
  CHECK(Gunzip(*GzipCompress("", 6)).empty());
  CHECK_FALSE(GzipCompress(text, 0).has_value());
  CHECK_FALSE(GzipCompress(text, 10).has_value());
  const auto brotli = BrotliCompress(text, 5);
  REQUIRE(brotli.has_value());
  CHECK(brotli->size() < text.size() / 4);
  CHECK_FALSE(BrotliCompress(text, 12).has_value());
  CHECK_FALSE(BrotliCompress(text, -1).has_value());
}

TEST_CASE("compression: a per-request body is gzipped only when large, accepted, not yet encoded, and smaller") {
  const std::string large = Repetitive(kMinDynamicGzipBytes);
  ApiResponse response{200, "application/json", large, {}};
  CHECK(GzipDynamicBody(response, "gzip, br"));
  CHECK(Gunzip(response.body) == large);
  CHECK(response.headers == std::vector<std::pair<std::string, std::string>>{{"Content-Encoding", "gzip"},
                                                                               {"Vary", "Accept-Encoding"}});
  ApiResponse small{200, "application/json", Repetitive(kMinDynamicGzipBytes - 1), {}};
  CHECK_FALSE(GzipDynamicBody(small, "gzip"));
  CHECK(small.body == Repetitive(kMinDynamicGzipBytes - 1));
  CHECK(small.headers.empty());
  ApiResponse not_accepted{200, "application/json", large, {}};
  CHECK_FALSE(GzipDynamicBody(not_accepted, "br"));
  CHECK_FALSE(GzipDynamicBody(not_accepted, "gzip;q=0"));
  CHECK_FALSE(GzipDynamicBody(not_accepted, ""));
  CHECK(not_accepted.body == large);
  ApiResponse encoded{200, "application/octet-stream", large, {{"content-encoding", "br"}}};
  CHECK_FALSE(GzipDynamicBody(encoded, "gzip"));
  CHECK(encoded.body == large);
  // Random-looking bytes do not shrink: sent as they are.
  std::string noise(kMinDynamicGzipBytes, '\0');
  std::uint32_t state = 12345;
  for (char& c : noise) {
    state = state * 1664525u + 1013904223u;
    c = static_cast<char>(state >> 24);
  }
  ApiResponse incompressible{200, "application/octet-stream", noise, {}};
  CHECK_FALSE(GzipDynamicBody(incompressible, "gzip"));
  CHECK(incompressible.body == noise);
  CHECK(incompressible.headers.empty());
}

}  // namespace deniable::server
