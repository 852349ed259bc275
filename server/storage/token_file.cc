#include "server/storage/token_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <cstring>

#include "server/base/file_util.h"

namespace deniable::server {
namespace {

std::string TrimTrailingWhitespace(std::string text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) text.pop_back();
  return text;
}

// Creates the file with O_EXCL; fails with errno EEXIST if it already exists.
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

Result<std::string> ReadTokenFile(const std::string& path, const std::function<Status(const std::string&)>& valid) {
  DENIABLE_ASSIGN_OR_RETURN(std::string text, ReadFileText(path));
  std::string token = TrimTrailingWhitespace(std::move(text));
  if (auto checked = valid(token); !checked) return InContext(path, checked.failure());
  return token;
}

}  // namespace

Result<std::string> LoadOrCreateTokenFile(const std::string& path, const std::function<std::string()>& fresh,
                                          const std::function<Status(const std::string&)>& valid) {
  if (::access(path.c_str(), F_OK) == 0) return ReadTokenFile(path, valid);
  const std::string token = fresh();
  if (WriteNewTokenFile(path, token)) return token;
  if (errno == EEXIST) return ReadTokenFile(path, valid);
  return MakeError("cannot create " + path + ": " + std::strerror(errno), ErrorCode::kUnavailable);
}

}  // namespace deniable::server
