// The admin token: 256 random bits (hex) kept by the storage (SQLite: in
// DATA_DIR/admin-token, mode 0600), created at first start. Admin endpoints need
// "Authorization: Bearer <token>"; the comparison takes constant time so the
// token cannot be guessed byte by byte from response times.
#pragma once

#include <string>
#include <string_view>

#include "core/common/random_source.h"
#include "core/common/result.h"
#include "server/storage/storage.h"

namespace deniable::server {

class AdminToken {
 public:
  // The stored token, or a new one from fresh randomness, stored.
  static Result<AdminToken> LoadOrCreate(Storage& storage, RandomSource& random);

  const std::string& value() const { return value_; }
  bool Matches(std::string_view candidate) const;

 private:
  explicit AdminToken(std::string value) : value_(std::move(value)) {}

  std::string value_;
};

// The token of an "Authorization: Bearer <token>" header value, or "" if the
// header is not a bearer credential.
std::string BearerToken(std::string_view authorization);

// Equal strings, in time that depends only on the lengths.
bool ConstantTimeEquals(std::string_view a, std::string_view b);

}  // namespace deniable::server
