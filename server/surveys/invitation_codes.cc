#include "server/surveys/invitation_codes.h"

#include <cctype>

#include "server/base/random_bytes.h"
#include "server/base/sha256.h"
#include "server/base/text_encoding.h"

namespace deniable::server {
namespace {

constexpr std::size_t kCodeBytes = 16;   // 128 bits
constexpr std::size_t kCodeLength = 26;  // ceil(128 / 5) base32 characters

}  // namespace

std::vector<std::string> GenerateInvitationCodes(RandomSource& random, int count) {
  std::vector<std::string> codes;
  codes.reserve(static_cast<std::size_t>(count));
  for (int i = 0; i < count; ++i) codes.push_back(Base32Encode(RandomBytes(random, kCodeBytes)));
  return codes;
}

std::optional<std::string> NormalizeInvitationCode(std::string_view received) {
  while (!received.empty() && received.front() == ' ') received.remove_prefix(1);
  while (!received.empty() && received.back() == ' ') received.remove_suffix(1);
  if (received.size() != kCodeLength) return std::nullopt;
  std::string code;
  for (char c : received) code.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  if (!IsLowercaseBase32(code)) return std::nullopt;
  return code;
}

std::string HashInvitationCode(const std::string& normalized_code) { return Sha256Hex(normalized_code); }

}  // namespace deniable::server
