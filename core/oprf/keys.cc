// Key pairs: drawn (production), derived (RFC 9497 section 3.2.1, the test
// vectors) or rebuilt from a stored secret.
#include <string>

#include "core/oprf/ristretto_group.h"
#include "core/oprf/suite.h"
#include "core/oprf/voprf.h"

namespace deniable::oprf {
namespace {

constexpr std::size_t kSeedBytes = 32;  // Nseed = Ns for ristretto255

KeyPair PairOf(const Scalar& secret_key) {
  KeyPair pair;
  pair.secret_key = secret_key;
  pair.public_key = group::ScalarMultBase(secret_key);
  return pair;
}

}  // namespace

KeyPair GenerateKeyPair(RandomSource& random) { return PairOf(group::RandomScalar(random)); }

Result<KeyPair> DeriveKeyPair(const Bytes& seed, const Bytes& info) {
  if (seed.size() != kSeedBytes) {
    return MakeError("seed: expected " + std::to_string(kSeedBytes) + " bytes, got " + std::to_string(seed.size()));
  }
  if (info.size() > 65535) return MakeError("info: longer than 65535 bytes");
  // deriveInput = seed || I2OSP(len(info), 2) || info, then a counter byte
  // until the scalar is non-zero (all but certainly at counter 0).
  Bytes derive_input = seed;
  AppendWithLength(derive_input, info.data(), info.size());
  const std::string dst = "DeriveKeyPair" + ContextString();
  for (int counter = 0; counter <= 255; ++counter) {
    Bytes message = derive_input;
    message.push_back(static_cast<std::uint8_t>(counter));
    const Scalar secret_key = HashToScalarWithDst(message, dst);
    if (!group::IsZero(secret_key)) return PairOf(secret_key);
  }
  return MakeError("DeriveKeyPair: no non-zero key within 256 counters", ErrorCode::kInternal);
}

Result<KeyPair> KeyPairFromSecret(const Scalar& secret_key) {
  DENIABLE_TRY(group::CheckNonZeroScalar(secret_key, "secret key"));
  return PairOf(secret_key);
}

}  // namespace deniable::oprf
