// Compression of response bodies by the server itself, with zlib (gzip) and
// the Brotli encoder. cpp-httplib can compress too, but it does so for every
// response anew on the request's thread (Brotli at quality 11: over half a
// second for the 416 KB WebAssembly bundle), so static files are compressed
// once, at start (static_files.h), and large API bodies may use these helpers.
// Nothing here decompresses: the server never inflates what a client sends.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "server/http/api_types.h"

namespace deniable::server {

// A gzip stream (RFC 1952) at zlib level 1..9; nullopt on failure or input over 1 GiB.
std::optional<std::string> GzipCompress(std::string_view data, int level);

// A Brotli stream (RFC 7932) at quality 0..11; nullopt on failure or input over 1 GiB.
std::optional<std::string> BrotliCompress(std::string_view data, int quality);

enum class ContentCoding { kIdentity, kGzip, kBrotli };

// The Content-Encoding value: "br", "gzip", or "" for identity (no header).
const char* ContentCodingName(ContentCoding coding);

// Which coding to send, given the request's Accept-Encoding value (RFC 9110
// 12.5.3) and which compressed variants exist: the acceptable one with the
// higher q-value, Brotli on a tie (smaller), identity when neither is
// acceptable. "q=0" refuses a coding, "*" stands for codings not named,
// "x-gzip" is gzip, and an empty or missing header means identity.
ContentCoding ChooseContentCoding(std::string_view accept_encoding, bool have_brotli, bool have_gzip);

// Bodies under this size are sent as they are: the saving would be a few
// hundred bytes, less than a packet.
inline constexpr std::size_t kMinDynamicGzipBytes = 4096;
inline constexpr int kDynamicGzipLevel = 6;  // zlib's default: most of level 9's saving at a third of the time

// For a body made per request (API JSON, CSV), not a static file: gzips it
// at kDynamicGzipLevel when it is at least kMinDynamicGzipBytes, the request
// accepts gzip, it has no Content-Encoding yet and compression makes it
// smaller; adds Content-Encoding and Vary. Returns whether it did.
bool GzipDynamicBody(ApiResponse& response, std::string_view accept_encoding);

}  // namespace deniable::server
