// core/oprf: RFC 9497 VOPRF (ristretto255-SHA512) against the RFC's vectors
// byte for byte, and the exact refusals at every boundary.
#include <doctest/doctest.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/common/seeded_random.h"
#include "core/oprf/expand_message_xmd.h"
#include "core/oprf/voprf.h"
#include "tests/cpp/core/oprf/rfc9497_vectors.h"

using namespace deniable;
using namespace deniable::oprf;

namespace {

Bytes Hex(const char* hex) { return FromHex(hex, std::string(hex).size() / 2, "test").value(); }

template <std::size_t N>
std::array<std::uint8_t, N> HexArray(const char* hex) {
  const Bytes bytes = Hex(hex);
  REQUIRE(bytes.size() == N);
  std::array<std::uint8_t, N> out;
  std::copy(bytes.begin(), bytes.end(), out.begin());
  return out;
}

KeyPair VectorKey() { return DeriveKeyPair(Hex(rfc9497::kSeed), Hex(rfc9497::kKeyInfo)).value(); }

// The first vector's whole exchange, to tamper with one part at a time.
struct Exchange {
  Bytes input;
  BlindedInput blinded;
  Evaluation evaluation;
  Element public_key;
};

Exchange VectorExchange() {
  const rfc9497::VoprfVector& v = rfc9497::kVoprfVectors[0];
  const KeyPair key = VectorKey();
  Exchange exchange;
  exchange.input = Hex(v.input);
  exchange.blinded = BlindWith(exchange.input, HexArray<kScalarBytes>(v.blind)).value();
  exchange.evaluation =
      BlindEvaluateWith(key, exchange.blinded.blinded_element, HexArray<kScalarBytes>(v.proof_random_scalar)).value();
  exchange.public_key = key.public_key;
  return exchange;
}

std::string FinalizeError(const Exchange& e) {
  const Result<Output> output = Finalize(e.input, e.blinded, e.evaluation, e.public_key);
  REQUIRE_FALSE(output.ok());
  return output.error();
}

// The group order L: the smallest non-canonical scalar.
constexpr const char* kGroupOrder = "edd3f55c1a631258d69cf7a2def9de1400000000000000000000000000000010";
// RFC 9496 appendix A.2's bad encodings: a field element >= p, and a negative s.
constexpr const char* kNonCanonicalElement = "00ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f";
constexpr const char* kNegativeElement = "0100000000000000000000000000000000000000000000000000000000000000";

// Hands out given 64-bit words, then zeros.
class ScriptedRandom final : public RandomSource {
 public:
  explicit ScriptedRandom(std::vector<std::uint64_t> words) : words_(std::move(words)) {}
  std::uint64_t NextU64() override { return next_ < words_.size() ? words_[next_++] : 0; }

 private:
  std::vector<std::uint64_t> words_;
  std::size_t next_ = 0;
};

// The 64-bit little-endian words whose bytes are `scalar` followed by 32 zero bytes.
std::vector<std::uint64_t> WordsOf(const Scalar& scalar) {
  std::vector<std::uint64_t> words(8, 0);
  for (std::size_t i = 0; i < scalar.size(); ++i) words[i / 8] |= std::uint64_t{scalar[i]} << (8 * (i % 8));
  return words;
}

}  // namespace

TEST_CASE("oprf: expand_message_xmd matches RFC 9380 K.3 (SHA-512)") {
  for (const rfc9497::XmdVector& v : rfc9497::kXmdVectors) {
    const std::string message = v.message;
    const Result<Bytes> uniform =
        ExpandMessageXmdSha512(Bytes(message.begin(), message.end()), rfc9497::kXmdDst, v.length);
    REQUIRE(uniform.ok());
    CHECK(ToHex(*uniform) == v.uniform_bytes);
  }
  // The RFC's limits: 255 blocks of 64 bytes, a DST of 255 bytes.
  CHECK_FALSE(ExpandMessageXmdSha512({}, "dst", 255 * 64 + 1).ok());
  CHECK(ExpandMessageXmdSha512({}, "dst", 255 * 64).ok());
  CHECK_FALSE(ExpandMessageXmdSha512({}, std::string(256, 'x'), 32).ok());
}

TEST_CASE("voprf: DeriveKeyPair gives RFC 9497 A.1.2's skSm and pkSm") {
  const KeyPair key = VectorKey();
  CHECK(ToHex(key.secret_key) == rfc9497::kSkSm);
  CHECK(ToHex(key.public_key) == rfc9497::kPkSm);
  const Result<KeyPair> rebuilt = KeyPairFromSecret(key.secret_key);
  REQUIRE(rebuilt.ok());
  CHECK(ToHex(rebuilt->public_key) == rfc9497::kPkSm);
  CHECK(DeriveKeyPair(Bytes(31, 0xa3), Hex(rfc9497::kKeyInfo)).error() == "seed: expected 32 bytes, got 31");
}

TEST_CASE("voprf: RFC 9497 A.1.2 vectors byte for byte (batch size 1)") {
  const KeyPair key = VectorKey();
  for (const rfc9497::VoprfVector& v : rfc9497::kVoprfVectors) {
    CAPTURE(v.input);
    const Bytes input = Hex(v.input);
    const Result<BlindedInput> blinded = BlindWith(input, HexArray<kScalarBytes>(v.blind));
    REQUIRE(blinded.ok());
    CHECK(ToHex(blinded->blinded_element) == v.blinded_element);

    const Result<Evaluation> evaluation =
        BlindEvaluateWith(key, blinded->blinded_element, HexArray<kScalarBytes>(v.proof_random_scalar));
    REQUIRE(evaluation.ok());
    CHECK(ToHex(evaluation->evaluated_element) == v.evaluation_element);
    CHECK(ToHex(evaluation->proof.c) + ToHex(evaluation->proof.s) == v.proof);

    const Result<Output> output = Finalize(input, *blinded, *evaluation, key.public_key);
    REQUIRE(output.ok());
    CHECK(ToHex(*output) == v.output);

    const Result<Output> direct = Evaluate(key.secret_key, input);
    REQUIRE(direct.ok());
    CHECK(ToHex(*direct) == v.output);
  }
}

TEST_CASE("voprf: Finalize refuses a tampered proof, another public key, a tampered evaluation") {
  const Exchange good = VectorExchange();
  REQUIRE(Finalize(good.input, good.blinded, good.evaluation, good.public_key).ok());
  const std::string refused = "proof: the evaluation was not made with the survey's published key";

  Exchange tampered_c = good;
  tampered_c.evaluation.proof.c[0] ^= 1;  // still a canonical scalar
  CHECK(FinalizeError(tampered_c) == refused);

  Exchange tampered_s = good;
  tampered_s.evaluation.proof.s[0] ^= 1;
  CHECK(FinalizeError(tampered_s) == refused);

  // A server evaluating under a key of its own (to tag this invitee) with a
  // proof for that key: the page checks against the published key instead.
  SeededRandom random(7);
  const KeyPair other = GenerateKeyPair(random);
  Exchange other_key = good;
  other_key.evaluation = BlindEvaluate(other, good.blinded.blinded_element, random).value();
  CHECK(FinalizeError(other_key) == refused);
  Exchange other_public_key = good;
  other_public_key.public_key = other.public_key;
  CHECK(FinalizeError(other_public_key) == refused);

  // Another valid element in place of the evaluation (that of the second vector).
  Exchange tampered_element = good;
  tampered_element.evaluation.evaluated_element = HexArray<kElementBytes>(rfc9497::kVoprfVectors[1].evaluation_element);
  CHECK(FinalizeError(tampered_element) == refused);

  Exchange identity = good;
  identity.evaluation.evaluated_element.fill(0);
  CHECK(FinalizeError(identity) == "evaluated_element: the identity element is not allowed");
  Exchange non_canonical_c = good;
  non_canonical_c.evaluation.proof.c = HexArray<kScalarBytes>(kGroupOrder);
  CHECK(FinalizeError(non_canonical_c) ==
        "proof.c: not a canonical ristretto255 scalar (not below the group order)");
  Exchange bad_public_key = good;
  bad_public_key.public_key = HexArray<kElementBytes>(kNegativeElement);
  CHECK(FinalizeError(bad_public_key) == "public_key: not a canonical ristretto255 element encoding");
}

TEST_CASE("voprf: BlindEvaluate refuses the identity (all-zero bytes) and non-canonical encodings") {
  const KeyPair key = VectorKey();
  SeededRandom random(1);
  // In ristretto255 the identity's only encoding is 32 zero bytes.
  CHECK(BlindEvaluate(key, Element{}, random).error() == "blinded_element: the identity element is not allowed");
  for (const char* bad : {kNonCanonicalElement, kNegativeElement, "ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff"}) {
    CAPTURE(bad);
    CHECK(BlindEvaluate(key, HexArray<kElementBytes>(bad), random).error() ==
          "blinded_element: not a canonical ristretto255 element encoding");
  }
  // A key pair whose halves do not belong together, and a zero proof scalar (which would reveal the key).
  const Element blinded = HexArray<kElementBytes>(rfc9497::kVoprfVectors[0].blinded_element);
  KeyPair mismatched = key;
  mismatched.public_key = HexArray<kElementBytes>(rfc9497::kVoprfVectors[0].evaluation_element);
  CHECK(BlindEvaluate(mismatched, blinded, random).error() == "public key: not the public key of the secret key");
  CHECK(BlindEvaluateWith(key, blinded, Scalar{}).error() == "proof random scalar: the zero scalar is not allowed");
}

TEST_CASE("voprf: KeyPairFromSecret, BlindWith and Evaluate refuse zero and non-canonical scalars") {
  CHECK(KeyPairFromSecret(Scalar{}).error() == "secret key: the zero scalar is not allowed");
  CHECK(KeyPairFromSecret(HexArray<kScalarBytes>(kGroupOrder)).error() ==
        "secret key: not a canonical ristretto255 scalar (not below the group order)");
  Scalar all_ones;
  all_ones.fill(0xff);
  CHECK_FALSE(KeyPairFromSecret(all_ones).ok());
  CHECK(BlindWith(Hex("00"), Scalar{}).error() == "blind: the zero scalar is not allowed");
  CHECK(Evaluate(Scalar{}, Hex("00")).error() == "secret key: the zero scalar is not allowed");
  CHECK(Evaluate(VectorKey().secret_key, Bytes(65536, 1)).error() == "input: longer than 65535 bytes");
}

TEST_CASE("voprf: hex on the wire: lowercase out, exact length and digits in, errors name the field") {
  const Bytes bytes{0x00, 0xab, 0xff};
  CHECK(ToHex(bytes) == "00abff");
  CHECK(FromHex("00ABff", 3, "x").value() == bytes);
  CHECK(FromHex("00abf", 3, "blinded_element").error() == "blinded_element: expected 6 hexadecimal characters, got 5");
  CHECK(FromHex("00abfg", 3, "proof.s").error() == "proof.s: character 6 is not hexadecimal");
  CHECK(FromHex("00 bff", 3, "proof.s").error() == "proof.s: character 3 is not hexadecimal");

  CHECK(ToHex(ElementFromHex(rfc9497::kPkSm, "public_key").value()) == rfc9497::kPkSm);
  CHECK(ElementFromHex(std::string(64, '0'), "blinded_element").error() ==
        "blinded_element: the identity element is not allowed");
  CHECK(ElementFromHex(kNegativeElement, "blinded_element").error() ==
        "blinded_element: not a canonical ristretto255 element encoding");
  CHECK(ElementFromHex("c803", "public_key").error() == "public_key: expected 64 hexadecimal characters, got 4");
  CHECK(ToHex(ScalarFromHex(rfc9497::kSkSm, "c").value()) == rfc9497::kSkSm);
  CHECK(ScalarFromHex(kGroupOrder, "proof.c").error() ==
        "proof.c: not a canonical ristretto255 scalar (not below the group order)");
  const std::string output_hex = rfc9497::kVoprfVectors[0].output;
  CHECK(ToHex(OutputFromHex(output_hex, "output").value()) == output_hex);
  CHECK(OutputFromHex(output_hex.substr(2), "token output").error() ==
        "token output: expected 128 hexadecimal characters, got 126");
}

TEST_CASE("voprf: a seeded Blind -> BlindEvaluate -> Finalize equals Evaluate; another key gives another output") {
  SeededRandom random(2026);
  const KeyPair key = GenerateKeyPair(random);
  const KeyPair other = GenerateKeyPair(random);
  REQUIRE(ToHex(key.secret_key) != ToHex(other.secret_key));
  for (int round = 0; round < 5; ++round) {
    Bytes input(kTokenInputBytes);
    for (auto& byte : input) byte = static_cast<std::uint8_t>(random.NextU64());
    const BlindedInput blinded = Blind(input, random).value();
    const Evaluation evaluation = BlindEvaluate(key, blinded.blinded_element, random).value();
    const Output output = Finalize(input, blinded, evaluation, key.public_key).value();
    CHECK(SameOutput(output, Evaluate(key.secret_key, input).value()));
    CHECK_FALSE(SameOutput(output, Evaluate(other.secret_key, input).value()));
    // The key of a stored secret is the same key.
    CHECK(ToHex(KeyPairFromSecret(key.secret_key).value().public_key) == ToHex(key.public_key));
  }
  // Blinding draws from the RandomSource: another draw, another blinded element, the same output.
  const Bytes input = Hex("5a5a");
  const BlindedInput first = Blind(input, random).value();
  const BlindedInput second = Blind(input, random).value();
  CHECK(ToHex(first.blinded_element) != ToHex(second.blinded_element));
  const Output via_first = Finalize(input, first, BlindEvaluate(key, first.blinded_element, random).value(),
                                    key.public_key).value();
  const Output via_second = Finalize(input, second, BlindEvaluate(key, second.blinded_element, random).value(),
                                     key.public_key).value();
  CHECK(SameOutput(via_first, via_second));
}

TEST_CASE("voprf: scalars are drawn as 64 little-endian bytes from RandomSource, reduced, and a zero is drawn again") {
  const rfc9497::VoprfVector& v = rfc9497::kVoprfVectors[0];
  const Scalar blind = HexArray<kScalarBytes>(v.blind);
  ScriptedRandom exact(WordsOf(blind));
  CHECK(ToHex(Blind(Hex(v.input), exact).value().blinded_element) == v.blinded_element);

  // Eight zero words reduce to the zero scalar: refused, the next 64 bytes are used.
  std::vector<std::uint64_t> words(8, 0);
  const std::vector<std::uint64_t> secret_words = WordsOf(HexArray<kScalarBytes>(rfc9497::kSkSm));
  words.insert(words.end(), secret_words.begin(), secret_words.end());
  ScriptedRandom zero_first(words);
  CHECK(ToHex(GenerateKeyPair(zero_first).public_key) == rfc9497::kPkSm);
}

TEST_CASE("voprf: a token input is 32 bytes drawn as little-endian words from RandomSource") {
  ScriptedRandom words({0x0706050403020100ULL, 0x0f0e0d0c0b0a0908ULL, 0x1716151413121110ULL, 0x1f1e1d1c1b1a1918ULL});
  CHECK(ToHex(RandomTokenInput(words)) == "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f");
}
