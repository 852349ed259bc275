#include "server/static_files.h"

#include <filesystem>
#include <map>
#include <system_error>

#include "server/file_util.h"
#include "server/security_headers.h"

namespace deniable::server {
namespace {

namespace fs = std::filesystem;

ApiResponse TextResponse(int status, const std::string& text) {
  return ApiResponse{status, "text/plain; charset=utf-8", text + "\n", {}};
}

// True when `path` (resolved, symlinks followed) is inside `root`.
bool IsInside(const fs::path& path, const fs::path& root) {
  std::error_code error;
  const auto real_path = fs::canonical(path, error);
  if (error) return false;
  const auto real_root = fs::canonical(root, error);
  if (error) return false;
  const auto relative = real_path.lexically_relative(real_root);
  return !relative.empty() && *relative.begin() != "..";
}

}  // namespace

std::string ContentTypeFor(const std::string& file_name) {
  static const std::map<std::string, std::string> kTypes = {
      {".html", "text/html; charset=utf-8"},  {".js", "text/javascript; charset=utf-8"},
      {".mjs", "text/javascript; charset=utf-8"}, {".css", "text/css; charset=utf-8"},
      {".svg", "image/svg+xml"},              {".wasm", "application/wasm"},
      {".json", "application/json"},          {".map", "application/json"},
      {".png", "image/png"},                  {".ico", "image/x-icon"},
      {".woff2", "font/woff2"},               {".txt", "text/plain; charset=utf-8"},
  };
  const auto it = kTypes.find(fs::path(file_name).extension().string());
  return it == kTypes.end() ? "application/octet-stream" : it->second;
}

bool IsSafeRelativePath(const std::string& relative_path) {
  if (relative_path.empty() || relative_path.size() > 512) return false;
  std::size_t start = 0;
  while (start <= relative_path.size()) {
    const std::size_t end = std::min(relative_path.find('/', start), relative_path.size());
    const std::string segment = relative_path.substr(start, end - start);
    if (segment.empty() || segment.front() == '.' || segment.find_first_of(std::string("\\\0:", 3)) != std::string::npos) {
      return false;
    }
    start = end + 1;
  }
  return true;
}

std::string DefaultWebDirectory() {
  const std::string beside_executable = ExecutableDirectory() + "/../web/dist";
  if (IsDirectory(beside_executable)) return fs::path(beside_executable).lexically_normal().string();
  if (IsDirectory("web/dist")) return "web/dist";
  return fs::path(beside_executable).lexically_normal().string();
}

bool StaticFiles::available() const { return IsDirectory(web_dir_); }

ApiResponse StaticFiles::Page(const std::string& file_name) const {
  ApiResponse response = ServeFile(web_dir_ + "/" + file_name, "no-cache");
  if (response.status == 200) response.headers.emplace_back("Content-Security-Policy", kPageContentSecurityPolicy);
  return response;
}

ApiResponse StaticFiles::Asset(const std::string& relative_path) const {
  if (!IsSafeRelativePath(relative_path)) return TextResponse(404, "not found");
  const std::string assets = web_dir_ + "/assets";
  const std::string path = assets + "/" + relative_path;
  if (!IsInside(path, assets)) return TextResponse(404, "not found");
  return ServeFile(path, "public, max-age=3600");
}

ApiResponse StaticFiles::ServeFile(const std::string& path, const std::string& cache_control) const {
  if (!available()) {
    return TextResponse(503, "The web pages are not built (no directory " + web_dir_ +
                                 "). Run `npm run build` (or `bash scripts/build.sh`) in the repository, or pass "
                                 "--web DIR. The API under /api works without them.");
  }
  std::error_code error;
  if (!fs::is_regular_file(path, error)) return TextResponse(404, "not found");
  auto content = ReadFileText(path);
  if (!content) return TextResponse(500, "cannot read the file");
  ApiResponse response{200, ContentTypeFor(path), std::move(content).value(), {}};
  response.headers.emplace_back("Cache-Control", cache_control);
  return response;
}

}  // namespace deniable::server
