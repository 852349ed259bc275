#include "server/base/file_util.h"

#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <system_error>

namespace deniable::server {

namespace fs = std::filesystem;

Result<std::string> ReadFileText(const std::string& path) {
  std::error_code error;
  if (!fs::exists(path, error)) return MakeError("cannot read " + path + ": no such file");
  if (fs::is_directory(path, error)) return MakeError("cannot read " + path + ": is a directory");
  std::ifstream file(path, std::ios::binary);
  if (!file) return MakeError("cannot read " + path + ": " + std::strerror(errno));
  std::ostringstream text;
  text << file.rdbuf();
  if (file.bad()) return MakeError("cannot read " + path + ": read error");
  return text.str();
}

Status EnsureDirectory(const std::string& path) {
  std::error_code error;
  if (fs::is_directory(path, error)) return OkStatus();
  fs::create_directories(path, error);
  if (error) return MakeError("cannot create directory " + path + ": " + error.message());
  ::chmod(path.c_str(), 0700);
  return OkStatus();
}

bool IsOpenToOthers(const std::string& path) {
  struct stat info {};
  return ::stat(path.c_str(), &info) == 0 && (info.st_mode & 077) != 0;
}

std::string ExecutableDirectory() {
  std::error_code error;
  const auto executable = fs::read_symlink("/proc/self/exe", error);
  if (error) return "";
  return executable.parent_path().string();
}

bool IsDirectory(const std::string& path) {
  std::error_code error;
  return fs::is_directory(path, error);
}

}  // namespace deniable::server
