#include "server/surveys/blind_tokens.h"

#include <algorithm>

#include "server/base/sha256.h"

namespace deniable::server {
namespace {

std::string_view AsText(const std::uint8_t* data, std::size_t size) {
  return std::string_view(reinterpret_cast<const char*>(data), size);
}

}  // namespace

oprf::KeyPair NewSurveyKey(RandomSource& random) { return oprf::GenerateKeyPair(random); }

std::string StoredSecret(const oprf::KeyPair& key) {
  return std::string(AsText(key.secret_key.data(), key.secret_key.size()));
}

Result<oprf::KeyPair> KeyFromStored(const std::string& secret) {
  oprf::Scalar scalar{};
  if (secret.size() != scalar.size()) {
    return MakeError("the stored survey key has " + std::to_string(secret.size()) + " bytes, not " +
                         std::to_string(scalar.size()),
                     ErrorCode::kInternal);
  }
  std::copy(secret.begin(), secret.end(), scalar.begin());
  auto key = oprf::KeyPairFromSecret(scalar);
  if (!key) return MakeError("the stored survey key is not valid: " + key.error(), ErrorCode::kInternal);
  return key;
}

std::string BlindedElementHash(const oprf::Element& element) { return Sha256Hex(AsText(element.data(), element.size())); }

Result<std::string> RedeemableTokenHash(const oprf::KeyPair& key, std::string_view header) {
  const auto dot = header.find('.');
  if (dot == std::string_view::npos) {
    return MakeError("X-Invitation-Token: must be \"<input hex>.<output hex>\" (the token the survey page received)");
  }
  auto input = oprf::FromHex(header.substr(0, dot), oprf::kTokenInputBytes, "X-Invitation-Token input");
  if (!input) return MakeError(input.error());
  auto output = oprf::OutputFromHex(header.substr(dot + 1), "X-Invitation-Token output");
  if (!output) return MakeError(output.error());
  auto expected = oprf::Evaluate(key.secret_key, *input);
  if (!expected || !oprf::SameOutput(*expected, *output)) {
    return MakeError("X-Invitation-Token: this token was not issued for this survey");
  }
  return Sha256Hex(AsText(input->data(), input->size()));
}

}  // namespace deniable::server
