// RFC 9497 section 2.1's prime-order group API for ristretto255, over
// libsodium's crypto_core_ristretto255_* and crypto_scalarmult_ristretto255.
// Internal to core/oprf: voprf.h is the interface the rest of the code uses.
//
// libsodium's ristretto255 functions need no sodium_init(): they call no
// implementation picked at run time (sodium_init would also seed libsodium's
// own randomness, which core never uses: RandomSource only).
#pragma once

#include <string_view>

#include "core/common/random_source.h"
#include "core/common/result.h"
#include "core/oprf/voprf.h"

namespace deniable::oprf::group {

// The identity element encodes as 32 zero bytes (RFC 9496 section 4.3.2).
bool IsIdentity(const Element& element);
// DeserializeElement: a canonical encoding of a group element other than the
// identity, else an error naming `what`.
Status CheckElement(const Element& element, std::string_view what);

// DeserializeScalar: canonical (below the group order), else an error.
Status CheckScalar(const Scalar& scalar, std::string_view what);
// The same, also refusing zero (keys, blinds).
Status CheckNonZeroScalar(const Scalar& scalar, std::string_view what);
bool IsZero(const Scalar& scalar);

// 64 little-endian bytes reduced modulo the group order.
Scalar ReduceWide(const std::uint8_t* wide);
// `size` bytes from `random`: each NextU64 gives 8 bytes, least significant first.
void DrawBytes(RandomSource& random, std::uint8_t* out, std::size_t size);
// RandomScalar: 64 bytes from `random` (DrawBytes) reduced, drawn again if zero.
Scalar RandomScalar(RandomSource& random);

Scalar Multiply(const Scalar& a, const Scalar& b);
Scalar Subtract(const Scalar& a, const Scalar& b);
// The inverse of a non-zero scalar (callers check: CheckNonZeroScalar).
Scalar Invert(const Scalar& scalar);

// scalar * element for a valid element (callers check), the identity allowed
// as the result (libsodium reports it as a failure: here it is 32 zero bytes).
Element ScalarMult(const Scalar& scalar, const Element& element);
// scalar * generator (ScalarMultGen).
Element ScalarMultBase(const Scalar& scalar);
// a + b for valid elements.
Element Add(const Element& a, const Element& b);

}  // namespace deniable::oprf::group
