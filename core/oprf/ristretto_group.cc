#include "core/oprf/ristretto_group.h"

#include <sodium.h>

#include <array>
#include <cstdint>
#include <string>

namespace deniable::oprf::group {
namespace {

Error NamedError(std::string_view what, const char* problem) {
  return MakeError(std::string(what) + ": " + problem);
}

}  // namespace

bool IsIdentity(const Element& element) { return sodium_is_zero(element.data(), element.size()) == 1; }

Status CheckElement(const Element& element, std::string_view what) {
  if (IsIdentity(element)) return NamedError(what, "the identity element is not allowed");
  if (crypto_core_ristretto255_is_valid_point(element.data()) != 1) {
    return NamedError(what, "not a canonical ristretto255 element encoding");
  }
  return OkStatus();
}

Status CheckScalar(const Scalar& scalar, std::string_view what) {
  // Canonical means below the group order: reducing it changes nothing.
  std::array<std::uint8_t, 64> wide{};
  std::copy(scalar.begin(), scalar.end(), wide.begin());
  if (sodium_memcmp(ReduceWide(wide.data()).data(), scalar.data(), scalar.size()) != 0) {
    return NamedError(what, "not a canonical ristretto255 scalar (not below the group order)");
  }
  return OkStatus();
}

Status CheckNonZeroScalar(const Scalar& scalar, std::string_view what) {
  DENIABLE_TRY(CheckScalar(scalar, what));
  if (IsZero(scalar)) return NamedError(what, "the zero scalar is not allowed");
  return OkStatus();
}

bool IsZero(const Scalar& scalar) { return sodium_is_zero(scalar.data(), scalar.size()) == 1; }

Scalar ReduceWide(const std::uint8_t* wide) {
  Scalar reduced;
  crypto_core_ristretto255_scalar_reduce(reduced.data(), wide);
  return reduced;
}

void DrawBytes(RandomSource& random, std::uint8_t* out, std::size_t size) {
  std::uint64_t word = 0;
  for (std::size_t i = 0; i < size; ++i, word >>= 8) {
    if (i % 8 == 0) word = random.NextU64();
    out[i] = static_cast<std::uint8_t>(word & 0xff);
  }
}

Scalar RandomScalar(RandomSource& random) {
  for (;;) {
    std::array<std::uint8_t, 64> wide;
    DrawBytes(random, wide.data(), wide.size());
    // 512 bits reduced modulo a 253-bit order: bias below 2^-250.
    const Scalar scalar = ReduceWide(wide.data());
    sodium_memzero(wide.data(), wide.size());
    if (!IsZero(scalar)) return scalar;
  }
}

Scalar Multiply(const Scalar& a, const Scalar& b) {
  Scalar product;
  crypto_core_ristretto255_scalar_mul(product.data(), a.data(), b.data());
  return product;
}

Scalar Subtract(const Scalar& a, const Scalar& b) {
  Scalar difference;
  crypto_core_ristretto255_scalar_sub(difference.data(), a.data(), b.data());
  return difference;
}

Scalar Invert(const Scalar& scalar) {
  Scalar inverse{};
  (void)crypto_core_ristretto255_scalar_invert(inverse.data(), scalar.data());  // fails only for zero
  return inverse;
}

Element ScalarMult(const Scalar& scalar, const Element& element) {
  Element product{};
  // -1 means an invalid element (callers pass valid ones) or an identity
  // result, which libsodium leaves encoded as zeros in `product`.
  if (crypto_scalarmult_ristretto255(product.data(), scalar.data(), element.data()) != 0) product.fill(0);
  return product;
}

Element ScalarMultBase(const Scalar& scalar) {
  Element product{};
  if (crypto_scalarmult_ristretto255_base(product.data(), scalar.data()) != 0) product.fill(0);
  return product;
}

Element Add(const Element& a, const Element& b) {
  Element sum{};
  (void)crypto_core_ristretto255_add(sum.data(), a.data(), b.data());  // fails only for invalid inputs
  return sum;
}

}  // namespace deniable::oprf::group
