#include "server/surveys/admin_token.h"

#include <cctype>

#include "server/base/random_bytes.h"
#include "server/base/text_encoding.h"

namespace deniable::server {
namespace {

constexpr std::size_t kTokenBytes = 32;  // 256 bits
constexpr std::size_t kTokenHexLength = 2 * kTokenBytes;

Status CheckToken(const std::string& token) {
  if (token.size() != kTokenHexLength || !IsLowercaseHex(token)) {
    return MakeError("does not hold a 64-character lowercase hex token (delete the file to create a new one)");
  }
  return OkStatus();
}

}  // namespace

Result<AdminToken> AdminToken::LoadOrCreate(Storage& storage, RandomSource& random) {
  DENIABLE_ASSIGN_OR_RETURN(std::string token, storage.LoadOrCreateAdminToken(
                                                   [&random] { return HexEncode(RandomBytes(random, kTokenBytes)); },
                                                   CheckToken));
  return AdminToken(std::move(token));
}

bool AdminToken::Matches(std::string_view candidate) const { return ConstantTimeEquals(candidate, value_); }

std::string BearerToken(std::string_view authorization) {
  constexpr std::string_view kScheme = "bearer ";
  if (authorization.size() <= kScheme.size()) return "";
  for (std::size_t i = 0; i < kScheme.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(authorization[i])) != kScheme[i]) return "";
  }
  std::string_view token = authorization.substr(kScheme.size());
  while (!token.empty() && token.front() == ' ') token.remove_prefix(1);
  while (!token.empty() && token.back() == ' ') token.remove_suffix(1);
  return std::string(token);
}

bool ConstantTimeEquals(std::string_view a, std::string_view b) {
  // Every byte of b is read whatever a holds; only the lengths leak, and the
  // token's length is public (it is always 64).
  volatile unsigned char difference = a.size() == b.size() ? 0 : 1;
  for (std::size_t i = 0; i < b.size(); ++i) {
    const unsigned char left = i < a.size() ? static_cast<unsigned char>(a[i]) : 0;
    difference = difference | (left ^ static_cast<unsigned char>(b[i]));
  }
  return difference == 0;
}

}  // namespace deniable::server
