// RFC 9497 section 3.3.2 (VOPRF): Blind, BlindEvaluate, Finalize, and the
// direct Evaluate of section 3.3.1, batch size 1.
#include "core/oprf/voprf.h"

#include <sodium.h>

#include "core/oprf/dleq_proof.h"
#include "core/oprf/ristretto_group.h"
#include "core/oprf/suite.h"

namespace deniable::oprf {
namespace {

// Finalize's I2OSP(len(input), 2) bounds the input.
constexpr std::size_t kMaxInputBytes = 65535;

// HashToGroup of the input, refused when over-long or (never in practice)
// the identity, which the RFC reports as InvalidInputError.
Result<Element> InputElement(const Bytes& input) {
  if (input.size() > kMaxInputBytes) return MakeError("input: longer than 65535 bytes");
  const Element element = HashToGroup(input);
  if (group::IsIdentity(element)) return MakeError("input: hashes to the identity element");
  return element;
}

// Hash(I2OSP(len(input), 2) || input || I2OSP(len(element), 2) || element || "Finalize").
Output HashOutput(const Bytes& input, const Element& unblinded) {
  Bytes transcript;
  AppendWithLength(transcript, input.data(), input.size());
  AppendWithLength(transcript, unblinded.data(), unblinded.size());
  AppendText(transcript, "Finalize");
  Output output;
  crypto_hash_sha512(output.data(), transcript.data(), transcript.size());
  return output;
}

// A key pair as given to the server: a usable secret whose public key is the
// one it publishes (else every proof would fail at the pages, silently).
Status CheckKeyPair(const KeyPair& key) {
  DENIABLE_TRY(group::CheckNonZeroScalar(key.secret_key, "secret key"));
  if (sodium_memcmp(group::ScalarMultBase(key.secret_key).data(), key.public_key.data(), kElementBytes) != 0) {
    return MakeError("public key: not the public key of the secret key");
  }
  return OkStatus();
}

}  // namespace

Bytes RandomTokenInput(RandomSource& random) {
  Bytes input(kTokenInputBytes);
  group::DrawBytes(random, input.data(), input.size());
  return input;
}

Result<BlindedInput> Blind(const Bytes& input, RandomSource& random) {
  return BlindWith(input, group::RandomScalar(random));
}

Result<BlindedInput> BlindWith(const Bytes& input, const Scalar& blind) {
  DENIABLE_TRY(group::CheckNonZeroScalar(blind, "blind"));
  DENIABLE_ASSIGN_OR_RETURN(const Element input_element, InputElement(input));
  BlindedInput blinded;
  blinded.blind = blind;
  blinded.blinded_element = group::ScalarMult(blind, input_element);
  return blinded;
}

Result<Output> Finalize(const Bytes& input, const BlindedInput& blinded, const Evaluation& evaluation,
                        const Element& public_key) {
  if (input.size() > kMaxInputBytes) return MakeError("input: longer than 65535 bytes");
  DENIABLE_TRY(group::CheckNonZeroScalar(blinded.blind, "blind"));
  DENIABLE_TRY(group::CheckElement(blinded.blinded_element, "blinded_element"));
  DENIABLE_TRY(group::CheckElement(evaluation.evaluated_element, "evaluated_element"));
  DENIABLE_TRY(group::CheckScalar(evaluation.proof.c, "proof.c"));
  DENIABLE_TRY(group::CheckScalar(evaluation.proof.s, "proof.s"));
  DENIABLE_TRY(group::CheckElement(public_key, "public_key"));
  if (!VerifyProof(public_key, blinded.blinded_element, evaluation.evaluated_element, evaluation.proof)) {
    return MakeError("proof: the evaluation was not made with the survey's published key");
  }
  const Element unblinded = group::ScalarMult(group::Invert(blinded.blind), evaluation.evaluated_element);
  return HashOutput(input, unblinded);
}

Result<Evaluation> BlindEvaluate(const KeyPair& key, const Element& blinded_element, RandomSource& random) {
  return BlindEvaluateWith(key, blinded_element, group::RandomScalar(random));
}

Result<Evaluation> BlindEvaluateWith(const KeyPair& key, const Element& blinded_element, const Scalar& proof_random) {
  DENIABLE_TRY(CheckKeyPair(key));
  DENIABLE_TRY(group::CheckElement(blinded_element, "blinded_element"));
  // A zero r would make s = -c*k: the proof would reveal the key.
  DENIABLE_TRY(group::CheckNonZeroScalar(proof_random, "proof random scalar"));
  Evaluation evaluation;
  evaluation.evaluated_element = group::ScalarMult(key.secret_key, blinded_element);
  evaluation.proof = GenerateProof(key.secret_key, key.public_key, blinded_element, evaluation.evaluated_element,
                                   proof_random);
  return evaluation;
}

Result<Output> Evaluate(const Scalar& secret_key, const Bytes& input) {
  DENIABLE_TRY(group::CheckNonZeroScalar(secret_key, "secret key"));
  DENIABLE_ASSIGN_OR_RETURN(const Element input_element, InputElement(input));
  return HashOutput(input, group::ScalarMult(secret_key, input_element));
}

bool SameOutput(const Output& a, const Output& b) { return sodium_memcmp(a.data(), b.data(), a.size()) == 0; }

}  // namespace deniable::oprf
