// The server's side of blind tokens (core/oprf/voprf.h, RFC 9497 VOPRF with
// ristretto255-SHA512): an invitation survey's key as stored, and a report's
// token as received. Issuance spends a code for a blinded element
// (Storage::SpendInvitationForToken) and answers its evaluation; redemption
// recomputes the PRF of the token's input and spends the input's hash with
// the report (Storage::CommitReports). The server never sees the blind, so
// nothing it receives, logs or stores pairs a code with a report, even with
// the key.
#pragma once

#include <string>
#include <string_view>

#include "core/common/random_source.h"
#include "core/common/result.h"
#include "core/oprf/voprf.h"

namespace deniable::server {

// A new survey's key pair, from the OS's CSPRNG.
oprf::KeyPair NewSurveyKey(RandomSource& random);
// The stored form of a key (its secret scalar's 32 bytes), and back (refused
// unless a canonical non-zero scalar: the store was damaged).
std::string StoredSecret(const oprf::KeyPair& key);
Result<oprf::KeyPair> KeyFromStored(const std::string& secret);

// SHA-256 (hex) of a blinded element's bytes: what a code is spent for.
std::string BlindedElementHash(const oprf::Element& element);

// The hash to spend for a report's X-Invitation-Token ("<input hex>.<output
// hex>", 32 and 64 bytes): SHA-256 (hex) of the input, once the survey's key
// gives the same output (compared in constant time). kInvalidArgument with
// a message for people when malformed or not the key's.
Result<std::string> RedeemableTokenHash(const oprf::KeyPair& key, std::string_view header);

}  // namespace deniable::server
