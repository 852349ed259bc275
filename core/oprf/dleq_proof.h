// RFC 9497 section 2.2: the discrete-log-equality proof that the evaluated
// element D was computed with the key whose public key is B = k * G, i.e.
// that log_G(B) == log_C(D), for one blinded element C (batch size 1).
// Internal to core/oprf (voprf.h uses it).
#pragma once

#include "core/oprf/voprf.h"

namespace deniable::oprf {

// GenerateProof(k, G, B, [C], [D]) with the proof's random scalar r given:
// (M, Z) = ComputeCompositesFast, t2 = r*G, t3 = r*M, c = challenge, s = r - c*k.
Proof GenerateProof(const Scalar& k, const Element& public_key, const Element& blinded, const Element& evaluated,
                    const Scalar& r);

// VerifyProof(G, B, [C], [D], proof): (M, Z) = ComputeComposites,
// t2 = s*G + c*B, t3 = s*M + c*Z, and c must equal the challenge over them.
// Elements must be valid (callers check); c and s canonical.
bool VerifyProof(const Element& public_key, const Element& blinded, const Element& evaluated, const Proof& proof);

}  // namespace deniable::oprf
