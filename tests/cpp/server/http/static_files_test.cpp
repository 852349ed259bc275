// StaticFiles on a temporary web directory: what a page and an asset are
// served with (content type, validator, caching, coding, the page CSP), 304
// on a current copy, files outside the assets (by "..", hidden names or a
// symlink) refused, files added later read from disk, and a missing
// directory answered 503.
#include "server/http/static_files.h"

#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "server/base/sha256.h"
#include "server/http/compression.h"
#include "server/http/security_headers.h"
#include "test_sync.h"

namespace deniable::server {
namespace {

namespace fs = std::filesystem;

// A web directory that removes itself.
class WebDir {
 public:
  WebDir() {
    std::string pattern = (fs::temp_directory_path() / "deniable-static-XXXXXX").string();
    REQUIRE(mkdtemp(pattern.data()) != nullptr);
    root_ = pattern;
    fs::create_directories(root_ / "dist" / "assets");
  }
  ~WebDir() { fs::remove_all(root_); }
  std::string dist() const { return (root_ / "dist").string(); }
  std::string outside() const { return root_.string(); }
  void Write(const std::string& relative, const std::string& content) const {
    std::ofstream(root_ / relative, std::ios::binary) << content;
  }

 private:
  fs::path root_;
};

ApiRequest Get(std::map<std::string, std::string> headers = {}) {
  ApiRequest request;
  request.method = "GET";
  request.headers = std::move(headers);
  return request;
}

std::string Header(const ApiResponse& response, const std::string& name) {
  for (const auto& [key, value] : response.headers) {
    if (key == name) return value;
  }
  return "<absent>";
}

std::string Page() {
  std::string page = "<!doctype html><title>Survey</title>";
  for (int i = 0; i < 50; ++i) page += "<p>The same paragraph, repeated, so that gzip makes it smaller.</p>\n";
  return page;
}

}  // namespace

TEST_CASE("static files: a page is served from memory with its validator, revalidation, coding and the page CSP") {
  WebDir dir;
  dir.Write("dist/survey.html", Page());
  StaticFiles files(dir.dist());
  REQUIRE(files.available());
  const std::string hash = Sha256Hex(Page()).substr(0, 32);

  const ApiResponse plain = files.Page("survey.html", Get());
  CHECK(plain.status == 200);
  CHECK(plain.content_type == "text/html; charset=utf-8");
  CHECK(plain.body == Page());
  CHECK(plain.headers == std::vector<std::pair<std::string, std::string>>{
                             {"ETag", "\"" + hash + "\""},
                             {"Cache-Control", "no-cache"},
                             {"Vary", "Accept-Encoding"},
                             {"Content-Security-Policy", kPageContentSecurityPolicy}});

  // Brotli variants are made in the background; a client taking only gzip gets gzip.
  const ApiResponse gzip = files.Page("survey.html", Get({{"accept-encoding", "gzip"}}));
  CHECK(gzip.status == 200);
  CHECK(Header(gzip, "ETag") == "\"" + hash + "-gzip\"");
  CHECK(Header(gzip, "Content-Encoding") == "gzip");
  CHECK(gzip.body.size() < Page().size());
  CHECK(gzip.body != Page());

  // The client's copy is current: 304 without a body, the CSP still sent.
  for (const std::string tag : {"\"" + hash + "\"", "W/\"" + hash + "\"", "\"other\", \"" + hash + "\"", std::string("*")}) {
    CAPTURE(tag);
    const ApiResponse current = files.Page("survey.html", Get({{"if-none-match", tag}}));
    CHECK(current.status == 304);
    CHECK(current.body.empty());
    CHECK(Header(current, "Content-Security-Policy") == kPageContentSecurityPolicy);
  }
  // A tag of another coding names other bytes.
  CHECK(files.Page("survey.html", Get({{"if-none-match", "\"" + hash + "-gzip\""}})).status == 200);
  // No such page.
  const ApiResponse missing = files.Page("missing.html", Get());
  CHECK(missing.status == 404);
  CHECK(missing.body == "not found\n");
  CHECK(Header(missing, "Content-Security-Policy") == "<absent>");
}

TEST_CASE("static files: Brotli variants are made in the background once a file is asked for; gzip until then") {
  WebDir dir;
  dir.Write("dist/index.html", Page());
  StaticFiles files(dir.dist());
  const ApiRequest both = Get({{"accept-encoding", "br, gzip"}});
  // The first request starts the work and is answered from the files as loaded.
  const ApiResponse first = files.Page("index.html", both);
  CHECK(Header(first, "Content-Encoding") == "gzip");
  ApiResponse later;
  CHECK(testing::WaitUntil([&] {
    later = files.Page("index.html", both);
    return Header(later, "Content-Encoding") == "br";
  }));
  CHECK(Header(later, "ETag") == "\"" + Sha256Hex(Page()).substr(0, 32) + "-br\"");
  CHECK(later.body.size() < first.body.size());
  // A client without Brotli still gets gzip.
  CHECK(Header(files.Page("index.html", Get({{"accept-encoding", "gzip"}})), "Content-Encoding") == "gzip");
}

TEST_CASE("static files: content-hashed assets are immutable for a year, other assets revalidated; no CSP on assets") {
  WebDir dir;
  dir.Write("dist/assets/main-B3xk9_Qa.js", "console.log(1);");
  dir.Write("dist/assets/style.css", "body{}");
  dir.Write("dist/assets/core-AbCdEf12.wasm", std::string("\0asm", 4));
  StaticFiles files(dir.dist());
  const ApiResponse script = files.Asset("main-B3xk9_Qa.js", Get());
  CHECK(script.status == 200);
  CHECK(script.content_type == "text/javascript; charset=utf-8");
  CHECK(script.body == "console.log(1);");
  CHECK(Header(script, "Cache-Control") == "public, max-age=31536000, immutable");
  CHECK(Header(script, "Content-Security-Policy") == "<absent>");
  // A tiny file is not compressed (gzip would be larger): identity even when gzip is accepted.
  CHECK(Header(files.Asset("main-B3xk9_Qa.js", Get({{"accept-encoding", "gzip"}})), "Content-Encoding") == "<absent>");
  const ApiResponse style = files.Asset("style.css", Get());
  CHECK(style.content_type == "text/css; charset=utf-8");
  CHECK(Header(style, "Cache-Control") == "no-cache");
  CHECK(files.Asset("core-AbCdEf12.wasm", Get()).content_type == "application/wasm");
}

TEST_CASE("static files: nothing outside the assets is served: \"..\", hidden names, symlinks leading out") {
  WebDir dir;
  dir.Write("secret.txt", "outside the web directory");
  dir.Write("dist/index.html", Page());
  dir.Write("dist/assets/.env", "hidden");
  fs::create_symlink(fs::path(dir.outside()) / "secret.txt", fs::path(dir.dist()) / "assets" / "link.txt");
  StaticFiles files(dir.dist());
  for (const std::string& path : std::vector<std::string>{"../index.html", "../../secret.txt", "..", ".env", "a//b", "a/./b", "/etc/passwd",
                                  "link.txt", "a\\b", "c:x", std::string("x\0y", 3), std::string(513, 'a')}) {
    CAPTURE(path);
    const ApiResponse response = files.Asset(path, Get());
    CHECK(response.status == 404);
    CHECK(response.body == "not found\n");
  }
  // A symlink inside the assets that stays inside them is served.
  dir.Write("dist/assets/real.txt", "inside");
  fs::create_symlink(fs::path(dir.dist()) / "assets" / "real.txt", fs::path(dir.dist()) / "assets" / "alias.txt");
  CHECK(files.Asset("alias.txt", Get()).body == "inside");
}

TEST_CASE("static files: a file added after start is read from disk per request, uncompressed and without a tag") {
  WebDir dir;
  dir.Write("dist/index.html", Page());
  StaticFiles files(dir.dist());
  dir.Write("dist/assets/late-Zz9Yy8Xx.js", "late();");
  const ApiResponse late = files.Asset("late-Zz9Yy8Xx.js", Get({{"accept-encoding", "gzip"}}));
  CHECK(late.status == 200);
  CHECK(late.body == "late();");
  CHECK(late.content_type == "text/javascript; charset=utf-8");
  CHECK(late.headers == std::vector<std::pair<std::string, std::string>>{
                            {"Cache-Control", "public, max-age=31536000, immutable"}});
}

TEST_CASE("static files: without a web directory, pages answer 503 saying how to build them") {
  WebDir dir;
  StaticFiles files(dir.outside() + "/not-built");
  CHECK_FALSE(files.available());
  const ApiResponse page = files.Page("index.html", Get());
  CHECK(page.status == 503);
  CHECK(page.body == "The web pages are not built (no directory " + dir.outside() +
                         "/not-built). Run `npm run build` (or `bash scripts/build.sh`) in the repository, or pass "
                         "--web DIR. The API under /api works without them.\n");
}

TEST_CASE("static files: safe relative paths, content-hashed names and content types") {
  CHECK(IsSafeRelativePath("app.js"));
  CHECK(IsSafeRelativePath("fonts/a-b_c.woff2"));
  for (const std::string& unsafe : std::vector<std::string>{"", ".", "..", "../x", "x/../y", ".hidden", "x/.git/y", "x/", "/x", "x//y",
                                   "x\\y", "c:y", std::string("x\0", 2), std::string(513, 'x')}) {
    CAPTURE(unsafe);
    CHECK_FALSE(IsSafeRelativePath(unsafe));
  }
  CHECK(IsSafeRelativePath(std::string(512, 'x')));
  CHECK(IsContentHashedName("main-B3xk9_Qa.js"));
  CHECK(IsContentHashedName("x-12345678.css"));
  CHECK(IsContentHashedName("a-b-AAAAAAAA.wasm"));
  CHECK_FALSE(IsContentHashedName("my-settings.js"));   // an ordinary word: no capital, no digit
  CHECK_FALSE(IsContentHashedName("main.B3xk9_Qa.js"));  // no dash before the hash
  CHECK_FALSE(IsContentHashedName("main-B3xk9_Q.js"));   // 7 characters
  CHECK_FALSE(IsContentHashedName("-B3xk9_Qa.js"));      // nothing before the dash
  CHECK_FALSE(IsContentHashedName("main-B3xk9+Qa.js"));
  CHECK_FALSE(IsContentHashedName("B3xk9_Qa"));
  CHECK(ContentTypeFor("a.html") == "text/html; charset=utf-8");
  CHECK(ContentTypeFor("a/b.mjs") == "text/javascript; charset=utf-8");
  CHECK(ContentTypeFor("a.svg") == "image/svg+xml");
  CHECK(ContentTypeFor("a.map") == "application/json");
  CHECK(ContentTypeFor("a.woff2") == "font/woff2");
  CHECK(ContentTypeFor("a.HTML") == "application/octet-stream");  // extensions are matched exactly
  CHECK(ContentTypeFor("Makefile") == "application/octet-stream");
}

}  // namespace deniable::server
