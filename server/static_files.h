// The web pages built by Vite (web/dist): GET / -> index.html, /s/{id} ->
// survey.html, /results/{id} -> dashboard.html, /create -> create.html,
// /assets/* -> files under dist/assets. Files are looked up only inside the
// web directory (no "..", no hidden files, no symlinks that lead out). When
// the web directory is missing, pages answer 503 saying how to build them.
#pragma once

#include <string>

#include "server/api_types.h"

namespace deniable::server {

class StaticFiles {
 public:
  explicit StaticFiles(std::string web_dir) : web_dir_(std::move(web_dir)) {}

  const std::string& web_dir() const { return web_dir_; }
  bool available() const;

  // One of the HTML pages, e.g. "survey.html", with the page CSP.
  ApiResponse Page(const std::string& file_name) const;
  // A file below assets/, given the part of the URL path after "/assets/".
  ApiResponse Asset(const std::string& relative_path) const;

 private:
  ApiResponse ServeFile(const std::string& path, const std::string& cache_control) const;

  std::string web_dir_;
};

// The default web directory: the first that exists of <executable dir>/../web/dist
// and ./web/dist (the first if neither exists).
std::string DefaultWebDirectory();

// Content-Type for a file name, by extension (application/octet-stream if unknown).
std::string ContentTypeFor(const std::string& file_name);

// True when every segment of the relative path is a plain, visible name.
bool IsSafeRelativePath(const std::string& relative_path);

}  // namespace deniable::server
