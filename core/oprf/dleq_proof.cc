#include "core/oprf/dleq_proof.h"

#include <sodium.h>

#include <array>

#include "core/oprf/ristretto_group.h"
#include "core/oprf/suite.h"

namespace deniable::oprf {
namespace {

struct Composites {
  Element m{};
  Element z{};
};

void AppendElement(Bytes& out, const Element& element) { AppendWithLength(out, element.data(), element.size()); }

// The composite weight d_0 of the single pair (C, D): HashToScalar over
// seed = Hash(len || B || len || "Seed-" || contextString) and the pair.
Scalar CompositeWeight(const Element& public_key, const Element& blinded, const Element& evaluated) {
  Bytes seed_transcript;
  AppendElement(seed_transcript, public_key);
  const std::string seed_dst = "Seed-" + ContextString();
  AppendWithLength(seed_transcript, reinterpret_cast<const std::uint8_t*>(seed_dst.data()), seed_dst.size());
  std::array<std::uint8_t, crypto_hash_sha512_BYTES> seed;
  crypto_hash_sha512(seed.data(), seed_transcript.data(), seed_transcript.size());

  Bytes composite_transcript;
  AppendWithLength(composite_transcript, seed.data(), seed.size());
  composite_transcript.push_back(0);  // I2OSP(i, 2) for i = 0: the only element of the batch
  composite_transcript.push_back(0);
  AppendElement(composite_transcript, blinded);
  AppendElement(composite_transcript, evaluated);
  AppendText(composite_transcript, "Composite");
  return HashToScalar(composite_transcript);
}

// ComputeCompositesFast (the prover knows k): M = d*C, Z = k*M.
Composites CompositesWithKey(const Scalar& k, const Element& public_key, const Element& blinded,
                             const Element& evaluated) {
  Composites composites;
  composites.m = group::ScalarMult(CompositeWeight(public_key, blinded, evaluated), blinded);
  composites.z = group::ScalarMult(k, composites.m);
  return composites;
}

// ComputeComposites (the verifier): M = d*C, Z = d*D.
Composites CompositesWithoutKey(const Element& public_key, const Element& blinded, const Element& evaluated) {
  const Scalar weight = CompositeWeight(public_key, blinded, evaluated);
  return Composites{group::ScalarMult(weight, blinded), group::ScalarMult(weight, evaluated)};
}

// c = HashToScalar(len || B || len || M || len || Z || len || t2 || len || t3 || "Challenge").
Scalar Challenge(const Element& public_key, const Composites& composites, const Element& t2, const Element& t3) {
  Bytes transcript;
  for (const Element* element : {&public_key, &composites.m, &composites.z, &t2, &t3}) AppendElement(transcript, *element);
  AppendText(transcript, "Challenge");
  return HashToScalar(transcript);
}

}  // namespace

Proof GenerateProof(const Scalar& k, const Element& public_key, const Element& blinded, const Element& evaluated,
                    const Scalar& r) {
  const Composites composites = CompositesWithKey(k, public_key, blinded, evaluated);
  const Element t2 = group::ScalarMultBase(r);
  const Element t3 = group::ScalarMult(r, composites.m);
  Proof proof;
  proof.c = Challenge(public_key, composites, t2, t3);
  proof.s = group::Subtract(r, group::Multiply(proof.c, k));
  return proof;
}

bool VerifyProof(const Element& public_key, const Element& blinded, const Element& evaluated, const Proof& proof) {
  const Composites composites = CompositesWithoutKey(public_key, blinded, evaluated);
  const Element t2 = group::Add(group::ScalarMultBase(proof.s), group::ScalarMult(proof.c, public_key));
  const Element t3 = group::Add(group::ScalarMult(proof.s, composites.m), group::ScalarMult(proof.c, composites.z));
  const Scalar expected = Challenge(public_key, composites, t2, t3);
  return sodium_memcmp(expected.data(), proof.c.data(), expected.size()) == 0;
}

}  // namespace deniable::oprf
