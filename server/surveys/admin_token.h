// The admin token: 256 random bits (hex) kept in DATA_DIR/admin-token, mode
// 0600, created at first start. Admin endpoints need
// "Authorization: Bearer <token>"; the comparison takes constant time so the
// token cannot be guessed byte by byte from response times.
#pragma once

#include <string>
#include <string_view>

#include "core/common/random_source.h"
#include "core/common/result.h"

namespace deniable::server {

class AdminToken {
 public:
  // Reads DATA_DIR/admin-token, or creates it with fresh randomness.
  static Result<AdminToken> LoadOrCreate(const std::string& data_dir, RandomSource& random);

  const std::string& value() const { return value_; }
  bool Matches(std::string_view candidate) const;

 private:
  explicit AdminToken(std::string value) : value_(std::move(value)) {}
  static Result<AdminToken> Read(const std::string& path);

  std::string value_;
};

// The token of an "Authorization: Bearer <token>" header value, or "" if the
// header is not a bearer credential.
std::string BearerToken(std::string_view authorization);

// Equal strings, in time that depends only on the lengths.
bool ConstantTimeEquals(std::string_view a, std::string_view b);

}  // namespace deniable::server
