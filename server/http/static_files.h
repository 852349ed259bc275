// The web pages built by Vite (web/dist): GET / -> index.html, /s/{id} ->
// survey.html, /results/{id} -> dashboard.html, /create -> create.html,
// /assets/* -> files under dist/assets. Files are looked up only inside the
// web directory (no "..", no hidden files, no symlinks that lead out). When
// the web directory is missing, pages answer 503 saying how to build them.
//
// A class opening a survey link together fetches the same few files at the
// same moment, so they are read and compressed once, not per request: the
// constructor loads the pages and every asset into memory (bounded: files
// over kMaxPreloadedFileBytes, or past kMaxPreloadedBytes in all, are read
// from disk per request and sent uncompressed) with a gzip variant, and a
// background thread adds Brotli variants (quality 11, about a second of one
// core for the 416 KB WebAssembly bundle) once the first page or asset is
// asked for; until then gzip is sent. A server that only answers the API
// (e.g. in tests) never pays for Brotli.
//
// Every response names its validator and caching: a strong ETag per file and
// coding, answered with 304 on If-None-Match; "Vary: Accept-Encoding";
// Cache-Control "public, max-age=31536000, immutable" for content-hashed
// assets (Vite's name-HASH.ext) and "no-cache" (revalidate) for the pages and
// other files. The memory copy is what is served until a restart: rebuilding
// web/dist while the server runs changes only files it had not loaded.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "server/http/api_types.h"

namespace deniable::server {

inline constexpr std::size_t kMaxPreloadedFileBytes = std::size_t{8} << 20;  // 8 MiB
inline constexpr std::size_t kMaxPreloadedBytes = std::size_t{64} << 20;     // all files, uncompressed
inline constexpr int kStaticBrotliQuality = 11;  // the smallest output; paid once per file
inline constexpr int kStaticGzipLevel = 9;       // ~15 ms for the largest file

// One file in memory. Immutable once published (the Brotli variant arrives
// as a new StaticFile), so requests read it without locks.
struct StaticFile {
  std::string content_type;
  std::string cache_control;
  std::string etag_hash;  // hex, shared by the codings' ETags
  std::string identity;
  std::string gzip;    // empty when it would not be smaller
  std::string brotli;  // empty when not smaller, or not compressed yet
};

class StaticFiles {
 public:
  // Loads the files (when the directory exists); Brotli comes later.
  explicit StaticFiles(std::string web_dir);
  ~StaticFiles();  // stops the background compression (finishing the file in hand)
  StaticFiles(const StaticFiles&) = delete;
  StaticFiles& operator=(const StaticFiles&) = delete;

  const std::string& web_dir() const { return web_dir_; }
  bool available() const;

  // One of the HTML pages, e.g. "survey.html", with the page CSP.
  ApiResponse Page(const std::string& file_name, const ApiRequest& request) const;
  // A file below assets/, given the part of the URL path after "/assets/".
  ApiResponse Asset(const std::string& relative_path, const ApiRequest& request) const;

 private:
  using FileTable = std::map<std::string, std::shared_ptr<const StaticFile>>;  // by path below web_dir

  // The file in memory, or nullptr; the first call starts the Brotli work.
  std::shared_ptr<const StaticFile> Find(const std::string& key) const;
  ApiResponse Serve(const StaticFile& file, const ApiRequest& request) const;
  ApiResponse ServeFromDisk(const std::string& path) const;
  void CompressWithBrotli();

  std::string web_dir_;
  mutable std::mutex mutex_;
  FileTable files_;                        // guarded by mutex_
  mutable bool brotli_wanted_ = false;     // guarded by mutex_: a static file was asked for
  bool stopping_ = false;                  // guarded by mutex_
  mutable std::condition_variable wake_;   // brotli_wanted_ or stopping_ changed
  std::thread brotli_thread_;
};

// The default web directory: the first that exists of <executable dir>/../web/dist
// and ./web/dist (the first if neither exists).
std::string DefaultWebDirectory();

// Content-Type for a file name, by extension (application/octet-stream if unknown).
std::string ContentTypeFor(const std::string& file_name);

// True when every segment of the relative path is a plain, visible name.
bool IsSafeRelativePath(const std::string& relative_path);

// True for Vite's content-hashed names, "name-HASH.ext" with an 8-character
// base64url hash holding an uppercase letter or a digit (so that an ordinary
// word such as "settings" is not taken for one).
bool IsContentHashedName(const std::string& file_name);

}  // namespace deniable::server
