#include "server/http/static_files.h"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <exception>
#include <filesystem>
#include <iostream>
#include <string_view>
#include <system_error>
#include <utility>
#include <vector>

#include "server/http/compression.h"
#include "server/base/file_util.h"
#include "server/http/security_headers.h"
#include "server/base/sha256.h"

namespace deniable::server {
namespace {

namespace fs = std::filesystem;

constexpr std::size_t kMaxPreloadedFiles = 4096;
constexpr int kMaxAssetDepth = 8;
// 128 bits of SHA-256: collisions are out of reach, and the tag stays short.
constexpr std::size_t kEtagHexDigits = 32;

constexpr const char* kImmutable = "public, max-age=31536000, immutable";
// Cached, but asked again (with If-None-Match) before each use: a rebuilt
// page must reach the next visitor, and it costs a 304 when unchanged.
constexpr const char* kRevalidate = "no-cache";

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

// Only assets get the year-long immutable lifetime: a page keeps its name
// across builds, while a hashed asset's name changes with its content.
std::string CacheControlFor(const std::string& key) {
  const bool asset = key.rfind("assets/", 0) == 0;
  return asset && IsContentHashedName(fs::path(key).filename().string()) ? kImmutable : kRevalidate;
}

std::string_view TrimTag(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
  return text;
}

// If-None-Match (RFC 9110 13.1.2): "*", or a list of entity tags compared
// weakly (a W/ prefix is ignored) with the tag of what would be sent.
bool NoneMatchHits(std::string_view header, std::string_view etag) {
  if (TrimTag(header) == "*") return true;
  while (!header.empty()) {
    const std::size_t comma = header.find(',');
    std::string_view tag = TrimTag(header.substr(0, comma));
    header = comma == std::string_view::npos ? std::string_view() : header.substr(comma + 1);
    if (tag.rfind("W/", 0) == 0) tag.remove_prefix(2);
    if (tag == etag) return true;
  }
  return false;
}

// Reads and compresses one file (gzip only; Brotli comes from the
// background thread). nullptr when it cannot be read.
std::shared_ptr<const StaticFile> LoadFile(const std::string& path, const std::string& key) {
  auto content = ReadFileText(path);
  if (!content) return nullptr;
  auto file = std::make_shared<StaticFile>();
  file->content_type = ContentTypeFor(key);
  file->cache_control = CacheControlFor(key);
  file->etag_hash = Sha256Hex(*content).substr(0, kEtagHexDigits);
  file->identity = std::move(content).value();
  auto gzip = GzipCompress(file->identity, kStaticGzipLevel);
  if (gzip && gzip->size() < file->identity.size()) file->gzip = std::move(*gzip);
  return file;
}

// The pages (*.html at the top) and every file below assets/ that a request
// could reach, within the size bounds; the rest is left to the disk path.
std::map<std::string, std::shared_ptr<const StaticFile>> LoadFiles(const std::string& web_dir) {
  std::map<std::string, std::shared_ptr<const StaticFile>> files;
  if (!IsDirectory(web_dir)) return files;
  std::vector<std::pair<fs::path, std::string>> candidates;  // (path, key)
  std::error_code error;
  for (fs::directory_iterator it(web_dir, error), end; !error && it != end; it.increment(error)) {
    const std::string name = it->path().filename().string();
    if (it->path().extension() == ".html" && IsSafeRelativePath(name)) candidates.emplace_back(it->path(), name);
  }
  const fs::path assets = fs::path(web_dir) / "assets";
  if (fs::is_directory(assets, error)) {
    for (fs::recursive_directory_iterator it(assets, error), end; !error && it != end; it.increment(error)) {
      if (it.depth() >= kMaxAssetDepth) it.disable_recursion_pending();
      const std::string relative = it->path().lexically_relative(assets).generic_string();
      if (IsSafeRelativePath(relative)) candidates.emplace_back(it->path(), "assets/" + relative);
    }
  }
  std::size_t total_bytes = 0;
  for (const auto& [path, key] : candidates) {
    if (files.size() >= kMaxPreloadedFiles) break;
    const fs::path root = key.rfind("assets/", 0) == 0 ? assets : fs::path(web_dir);
    if (!fs::is_regular_file(path, error) || !IsInside(path, root)) continue;
    const auto size = fs::file_size(path, error);
    if (error || size > kMaxPreloadedFileBytes || total_bytes + size > kMaxPreloadedBytes) continue;
    if (auto file = LoadFile(path.string(), key)) {
      total_bytes += file->identity.size();
      files.emplace(key, std::move(file));
    }
  }
  return files;
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

bool IsContentHashedName(const std::string& file_name) {
  constexpr std::size_t kHashLength = 8;  // Vite's default [hash] length
  const std::size_t dot = file_name.rfind('.');
  if (dot == std::string::npos || dot < kHashLength + 2) return false;
  const std::size_t hash_start = dot - kHashLength;
  if (file_name[hash_start - 1] != '-') return false;
  bool distinctive = false;
  for (std::size_t i = hash_start; i < dot; ++i) {
    const unsigned char c = static_cast<unsigned char>(file_name[i]);
    if (!std::isalnum(c) && c != '_' && c != '-') return false;
    distinctive = distinctive || std::isupper(c) || std::isdigit(c);
  }
  return distinctive;
}

std::string DefaultWebDirectory() {
  const std::string beside_executable = ExecutableDirectory() + "/../web/dist";
  if (IsDirectory(beside_executable)) return fs::path(beside_executable).lexically_normal().string();
  if (IsDirectory("web/dist")) return "web/dist";
  return fs::path(beside_executable).lexically_normal().string();
}

StaticFiles::StaticFiles(std::string web_dir) : web_dir_(std::move(web_dir)), files_(LoadFiles(web_dir_)) {
  if (files_.empty()) return;
  try {
    brotli_thread_ = std::thread([this] { CompressWithBrotli(); });
  } catch (const std::system_error&) {
    // No thread: gzip is served instead, which is still compressed once.
  }
}

StaticFiles::~StaticFiles() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (brotli_thread_.joinable()) brotli_thread_.join();
}

bool StaticFiles::available() const { return IsDirectory(web_dir_); }

ApiResponse StaticFiles::Page(const std::string& file_name, const ApiRequest& request) const {
  const auto file = Find(file_name);
  ApiResponse response = file ? Serve(*file, request) : ServeFromDisk(web_dir_ + "/" + file_name);
  if (response.status == 200 || response.status == 304) {
    response.headers.emplace_back("Content-Security-Policy", kPageContentSecurityPolicy);
  }
  return response;
}

ApiResponse StaticFiles::Asset(const std::string& relative_path, const ApiRequest& request) const {
  if (!IsSafeRelativePath(relative_path)) return TextResponse(404, "not found");
  if (const auto file = Find("assets/" + relative_path)) return Serve(*file, request);  // checked when loaded
  const std::string assets = web_dir_ + "/assets";
  const std::string path = assets + "/" + relative_path;
  if (!IsInside(path, assets)) return TextResponse(404, "not found");
  return ServeFromDisk(path);
}

std::shared_ptr<const StaticFile> StaticFiles::Find(const std::string& key) const {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!brotli_wanted_) {
    brotli_wanted_ = true;
    wake_.notify_all();
  }
  const auto it = files_.find(key);
  return it == files_.end() ? nullptr : it->second;
}

ApiResponse StaticFiles::Serve(const StaticFile& file, const ApiRequest& request) const {
  const ContentCoding coding =
      ChooseContentCoding(request.Header("accept-encoding"), !file.brotli.empty(), !file.gzip.empty());
  const std::string coding_name = ContentCodingName(coding);
  // A strong validator names one sequence of bytes, so each coding has its own tag.
  const std::string etag = "\"" + file.etag_hash + (coding_name.empty() ? "" : "-" + coding_name) + "\"";
  ApiResponse response{200, file.content_type, "", {}};
  response.headers = {{"ETag", etag}, {"Cache-Control", file.cache_control}, {"Vary", "Accept-Encoding"}};
  if (NoneMatchHits(request.Header("if-none-match"), etag)) {
    response.status = 304;  // the client's copy is current: no body
    return response;
  }
  if (coding != ContentCoding::kIdentity) response.headers.emplace_back("Content-Encoding", coding_name);
  response.body = coding == ContentCoding::kBrotli ? file.brotli
                  : coding == ContentCoding::kGzip ? file.gzip
                                                   : file.identity;
  return response;
}

// Files not held in memory (too large, added after start, or no web
// directory at start): read per request and sent as they are.
ApiResponse StaticFiles::ServeFromDisk(const std::string& path) const {
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
  const std::string relative = fs::path(path).lexically_relative(web_dir_).generic_string();
  response.headers.emplace_back("Cache-Control", CacheControlFor(relative));
  return response;
}

void StaticFiles::CompressWithBrotli() {
  std::vector<std::pair<std::string, std::shared_ptr<const StaticFile>>> work;
  {
    std::unique_lock<std::mutex> lock(mutex_);
    wake_.wait(lock, [this] { return brotli_wanted_ || stopping_; });
    if (stopping_) return;
    work.assign(files_.begin(), files_.end());
  }
  // Smallest first: the pages and small scripts are ready at once, the bundle last.
  std::sort(work.begin(), work.end(),
            [](const auto& a, const auto& b) { return a.second->identity.size() < b.second->identity.size(); });
  const auto start = std::chrono::steady_clock::now();
  std::size_t identity_bytes = 0, brotli_bytes = 0;
  try {
    for (const auto& [key, file] : work) {
      {
        std::lock_guard<std::mutex> lock(mutex_);
        if (stopping_) return;
      }
      auto brotli = BrotliCompress(file->identity, kStaticBrotliQuality);
      const std::size_t best = file->gzip.empty() ? file->identity.size() : file->gzip.size();
      if (!brotli || brotli->size() >= best) continue;
      identity_bytes += file->identity.size();
      brotli_bytes += brotli->size();
      auto updated = std::make_shared<StaticFile>(*file);
      updated->brotli = std::move(*brotli);
      std::lock_guard<std::mutex> lock(mutex_);
      files_[key] = std::move(updated);
    }
  } catch (const std::exception& error) {
    std::cerr << "warning: web pages: Brotli compression stopped (" << error.what() << "); gzip is served" << std::endl;
    return;
  }
  const auto elapsed = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start);
  std::cout << "web pages: Brotli variants ready (" << work.size() << " files, " << identity_bytes << " -> "
            << brotli_bytes << " bytes) in " << elapsed.count() << " ms" << std::endl;
}

}  // namespace deniable::server
