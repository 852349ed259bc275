#include "server/surveys/admin_token.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <cstring>

#include "server/base/file_util.h"
#include "server/base/random_bytes.h"
#include "server/base/text_encoding.h"

namespace deniable::server {
namespace {

constexpr std::size_t kTokenBytes = 32;  // 256 bits
constexpr std::size_t kTokenHexLength = 2 * kTokenBytes;

std::string TrimTrailingWhitespace(std::string text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) text.pop_back();
  return text;
}

// Creates the file with O_EXCL so two servers starting at once cannot both
// create a token; fails with errno EEXIST if it already exists.
bool WriteNewTokenFile(const std::string& path, const std::string& token) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0) return false;
  const std::string line = token + "\n";
  const bool written = ::write(fd, line.data(), line.size()) == static_cast<ssize_t>(line.size()) && ::fsync(fd) == 0;
  const int saved_errno = errno;
  ::close(fd);
  errno = saved_errno;
  return written;
}

}  // namespace

Result<AdminToken> AdminToken::LoadOrCreate(const std::string& data_dir, RandomSource& random) {
  const std::string path = data_dir + "/admin-token";
  if (::access(path.c_str(), F_OK) == 0) return Read(path);
  const std::string token = HexEncode(RandomBytes(random, kTokenBytes));
  if (WriteNewTokenFile(path, token)) return AdminToken(token);
  if (errno == EEXIST) return Read(path);
  return MakeError("cannot create " + path + ": " + std::strerror(errno));
}

Result<AdminToken> AdminToken::Read(const std::string& path) {
  DENIABLE_ASSIGN_OR_RETURN(auto text, ReadFileText(path));
  std::string token = TrimTrailingWhitespace(text);
  if (token.size() != kTokenHexLength || !IsLowercaseHex(token)) {
    return MakeError(path + ": does not hold a 64-character lowercase hex token (delete the file to create a new one)");
  }
  return AdminToken(token);
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
