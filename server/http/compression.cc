#include "server/http/compression.h"

#include <brotli/encode.h>
#include <zlib.h>

#include <algorithm>
#include <cctype>
#include <cstddef>
#include <cstdint>
#include <utility>

namespace deniable::server {
namespace {

// zlib counts in 32-bit unsigned ints; one call handles at most this much,
// which is far more than any static file or API body the server sends.
constexpr std::size_t kMaxInputBytes = std::size_t{1} << 30;

// 15 = the largest window (32 KiB); +16 asks zlib for the gzip wrapper
// rather than the zlib one, which is what "Content-Encoding: gzip" means.
constexpr int kGzipWindowBits = 15 + 16;
constexpr int kZlibMemoryLevel = 8;  // zlib's default

std::string_view TrimToken(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
  return text;
}

bool EqualsIgnoringCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i]))) return false;
  }
  return true;
}

// A qvalue ("0", "0.5", "1.000"; RFC 9110 12.4.2) in thousandths, or -1 when malformed.
int ParseQValue(std::string_view text) {
  if (text.empty() || (text[0] != '0' && text[0] != '1')) return -1;
  int thousandths = (text[0] - '0') * 1000;
  if (text.size() == 1) return thousandths;
  if (text[1] != '.' || text.size() > 5) return -1;
  int scale = 100;
  for (std::size_t i = 2; i < text.size(); ++i, scale /= 10) {
    if (!std::isdigit(static_cast<unsigned char>(text[i]))) return -1;
    thousandths += (text[i] - '0') * scale;
  }
  return thousandths <= 1000 ? thousandths : -1;
}

// The q-value an Accept-Encoding element gives its coding: 1000 without a
// "q" parameter, -1 when the parameter is malformed (the element is ignored).
int ElementWeight(std::string_view parameters) {
  int weight = 1000;
  while (!parameters.empty()) {
    const std::size_t end = parameters.find(';');
    const std::string_view parameter = TrimToken(parameters.substr(0, end));
    parameters = end == std::string_view::npos ? std::string_view() : parameters.substr(end + 1);
    const std::size_t equals = parameter.find('=');
    if (equals == std::string_view::npos) continue;
    if (EqualsIgnoringCase(TrimToken(parameter.substr(0, equals)), "q")) weight = ParseQValue(TrimToken(parameter.substr(equals + 1)));
  }
  return weight;
}

}  // namespace

std::optional<std::string> GzipCompress(std::string_view data, int level) {
  if (data.size() > kMaxInputBytes || level < 1 || level > 9) return std::nullopt;
  z_stream stream{};
  if (deflateInit2(&stream, level, Z_DEFLATED, kGzipWindowBits, kZlibMemoryLevel, Z_DEFAULT_STRATEGY) != Z_OK) {
    return std::nullopt;
  }
  // deflateBound covers the worst case (incompressible input plus the gzip
  // header and trailer), so one deflate call with Z_FINISH completes.
  std::string output(deflateBound(&stream, static_cast<uLong>(data.size())), '\0');
  stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));  // zlib does not write the input
  stream.avail_in = static_cast<uInt>(data.size());
  stream.next_out = reinterpret_cast<Bytef*>(output.data());
  stream.avail_out = static_cast<uInt>(output.size());
  const int result = deflate(&stream, Z_FINISH);
  output.resize(stream.total_out);
  deflateEnd(&stream);
  if (result != Z_STREAM_END) return std::nullopt;
  return output;
}

std::optional<std::string> BrotliCompress(std::string_view data, int quality) {
  if (data.size() > kMaxInputBytes || quality < BROTLI_MIN_QUALITY || quality > BROTLI_MAX_QUALITY) return std::nullopt;
  std::size_t size = BrotliEncoderMaxCompressedSize(data.size());
  if (size == 0) return std::nullopt;
  std::string output(size, '\0');
  const bool ok = BrotliEncoderCompress(quality, BROTLI_DEFAULT_WINDOW, BROTLI_MODE_GENERIC, data.size(),
                                        reinterpret_cast<const std::uint8_t*>(data.data()), &size,
                                        reinterpret_cast<std::uint8_t*>(output.data()));
  if (!ok) return std::nullopt;
  output.resize(size);
  return output;
}

const char* ContentCodingName(ContentCoding coding) {
  switch (coding) {
    case ContentCoding::kBrotli:
      return "br";
    case ContentCoding::kGzip:
      return "gzip";
    case ContentCoding::kIdentity:
      break;
  }
  return "";
}

ContentCoding ChooseContentCoding(std::string_view accept_encoding, bool have_brotli, bool have_gzip) {
  // -1: not named. Thousandths otherwise (0: refused).
  int brotli = -1, gzip = -1, any = -1;
  while (!accept_encoding.empty()) {
    const std::size_t end = accept_encoding.find(',');
    const std::string_view element = TrimToken(accept_encoding.substr(0, end));
    accept_encoding = end == std::string_view::npos ? std::string_view() : accept_encoding.substr(end + 1);
    const std::size_t semicolon = element.find(';');
    const std::string_view coding = TrimToken(element.substr(0, semicolon));
    const int weight = ElementWeight(semicolon == std::string_view::npos ? std::string_view() : element.substr(semicolon + 1));
    if (weight < 0) continue;
    if (EqualsIgnoringCase(coding, "br")) brotli = weight;
    if (EqualsIgnoringCase(coding, "gzip") || EqualsIgnoringCase(coding, "x-gzip")) gzip = weight;
    if (coding == "*") any = weight;
  }
  // "*" stands for every coding the header does not name; unnamed without "*" means not acceptable.
  const int brotli_weight = !have_brotli ? 0 : brotli >= 0 ? brotli : std::max(any, 0);
  const int gzip_weight = !have_gzip ? 0 : gzip >= 0 ? gzip : std::max(any, 0);
  if (brotli_weight > 0 && brotli_weight >= gzip_weight) return ContentCoding::kBrotli;
  if (gzip_weight > 0) return ContentCoding::kGzip;
  return ContentCoding::kIdentity;
}

bool GzipDynamicBody(ApiResponse& response, std::string_view accept_encoding) {
  if (response.body.size() < kMinDynamicGzipBytes) return false;
  if (ChooseContentCoding(accept_encoding, false, true) != ContentCoding::kGzip) return false;
  for (const auto& header : response.headers) {
    if (EqualsIgnoringCase(header.first, "Content-Encoding")) return false;
  }
  auto gzip = GzipCompress(response.body, kDynamicGzipLevel);
  if (!gzip || gzip->size() >= response.body.size()) return false;
  response.body = std::move(*gzip);
  response.headers.emplace_back("Content-Encoding", "gzip");
  response.headers.emplace_back("Vary", "Accept-Encoding");
  return true;
}

}  // namespace deniable::server
