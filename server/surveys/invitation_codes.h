// Invitation codes: 128 random bits (OsRandom) written as 26 lowercase base32
// characters. Only the SHA-256 of a code is stored, so a copy of the database
// does not reveal unused codes. Codes are matched case-insensitively, with
// surrounding spaces ignored, because people copy and type them.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/common/random_source.h"

namespace deniable::server {

inline constexpr int kMaxInvitationsPerRequest = 10000;

std::vector<std::string> GenerateInvitationCodes(RandomSource& random, int count);

// The canonical form of a code as received, or nullopt if it cannot be one.
std::optional<std::string> NormalizeInvitationCode(std::string_view received);

std::string HashInvitationCode(const std::string& normalized_code);

}  // namespace deniable::server
