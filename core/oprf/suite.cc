#include "core/oprf/suite.h"

#include <sodium.h>

#include "core/oprf/expand_message_xmd.h"

namespace deniable::oprf {
namespace {

// Ristretto255's hash-to-group and hash-to-scalar both take 64 uniform bytes.
constexpr std::size_t kUniformBytes = 64;

Bytes Uniform(const Bytes& message, std::string_view dst) {
  // Cannot fail: 64 bytes and a DST of at most ~45 bytes are far inside the limits.
  return ExpandMessageXmdSha512(message, dst, kUniformBytes).value();
}

}  // namespace

std::string ContextString(std::uint8_t mode) {
  std::string context = "OPRFV1-";
  context.push_back(static_cast<char>(mode));
  context += "-ristretto255-SHA512";
  return context;
}

Element HashToGroup(const Bytes& input, std::uint8_t mode) {
  const Bytes uniform = Uniform(input, "HashToGroup-" + ContextString(mode));
  Element element;
  crypto_core_ristretto255_from_hash(element.data(), uniform.data());
  return element;
}

Scalar HashToScalarWithDst(const Bytes& message, std::string_view dst) {
  const Bytes uniform = Uniform(message, dst);
  Scalar scalar;
  crypto_core_ristretto255_scalar_reduce(scalar.data(), uniform.data());
  return scalar;
}

Scalar HashToScalar(const Bytes& message, std::uint8_t mode) {
  return HashToScalarWithDst(message, "HashToScalar-" + ContextString(mode));
}

void AppendWithLength(Bytes& out, const std::uint8_t* data, std::size_t size) {
  out.push_back(static_cast<std::uint8_t>(size >> 8));
  out.push_back(static_cast<std::uint8_t>(size & 0xff));
  out.insert(out.end(), data, data + size);
}

void AppendText(Bytes& out, std::string_view text) { out.insert(out.end(), text.begin(), text.end()); }

}  // namespace deniable::oprf
