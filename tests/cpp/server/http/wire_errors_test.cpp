// The server's one error table (server/http/wire_errors.h): each wire code
// listed once with a real HTTP status, every kind of core Error answered by
// some code, and README's error table listing exactly these codes with the
// same statuses.
#include <doctest/doctest.h>

#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "server/http/wire_errors.h"

using namespace deniable;
using namespace deniable::server;

namespace {

const std::vector<ErrorCode> kAllKinds = {ErrorCode::kInvalidArgument, ErrorCode::kNotFound, ErrorCode::kConflict,
                                          ErrorCode::kCancelled,       ErrorCode::kBusy,     ErrorCode::kUnavailable,
                                          ErrorCode::kInternal};

std::vector<std::string> Split(const std::string& text, const std::string& separator) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  for (std::size_t at; (at = text.find(separator, start)) != std::string::npos; start = at + separator.size()) {
    parts.push_back(text.substr(start, at - start));
  }
  parts.push_back(text.substr(start));
  return parts;
}

std::string Trim(const std::string& text) {
  const auto first = text.find_first_not_of(' ');
  const auto last = text.find_last_not_of(' ');
  return first == std::string::npos ? "" : text.substr(first, last - first + 1);
}

// README's error table (HTTP API, "Errors"): code -> status (0 for "any").
// A row names one status for all its codes, or one per code ("417 / 501").
std::map<std::string, int> ReadmeTable() {
  std::ifstream file(std::string(DENIABLE_SOURCE_DIR) + "/README.md");
  REQUIRE(file);
  std::map<std::string, int> table;
  std::string line;
  bool inside = false;
  while (std::getline(file, line)) {
    if (line == "| status | code | when |") {
      inside = true;
      continue;
    }
    if (!inside) continue;
    if (line.rfind("| ---", 0) == 0) continue;
    if (line.empty() || line[0] != '|') break;
    const std::vector<std::string> cells = Split(line, " | ");
    REQUIRE(cells.size() >= 3);
    std::vector<std::string> statuses = Split(Trim(cells[0].substr(1)), " / ");
    std::vector<std::string> codes;
    const std::string code_cell = cells[1];
    const std::regex quoted("`([a-z_]+)`");
    for (auto it = std::sregex_iterator(code_cell.begin(), code_cell.end(), quoted); it != std::sregex_iterator(); ++it) {
      codes.push_back((*it)[1]);
    }
    INFO(line);
    REQUIRE(!codes.empty());
    REQUIRE((statuses.size() == 1 || statuses.size() == codes.size()));
    for (std::size_t i = 0; i < codes.size(); ++i) {
      const std::string& status = statuses[statuses.size() == 1 ? 0 : i];
      CHECK_MESSAGE(table.count(codes[i]) == 0, "README lists " << codes[i] << " twice");
      table[codes[i]] = status == "any" ? 0 : std::stoi(status);
    }
  }
  return table;
}

}  // namespace

TEST_CASE("each wire code is listed once, in WireCode order, with an HTTP error status") {
  std::set<std::string> names;
  for (std::size_t i = 0; i < WireErrors().size(); ++i) {
    const WireError& row = WireErrors()[i];
    INFO(row.name);
    CHECK(static_cast<std::size_t>(row.code) == i);
    CHECK(&WireErrorOf(row.code) == &row);
    CHECK(names.insert(std::string(row.name)).second);
    CHECK(std::regex_match(std::string(row.name), std::regex("[a-z]+(_[a-z]+)*")));
    if (row.code == WireCode::kHttpError) {
      CHECK(row.status == 0);  // the HTTP library's own status
    } else {
      CHECK(row.status >= 400);
      CHECK(row.status <= 599);
    }
  }
  CHECK(WireErrors().size() == static_cast<std::size_t>(WireCode::kExportFailed) + 1);
}

TEST_CASE("ApiErrorFor takes the table's status and name") {
  const ApiError error = ApiErrorFor(WireCode::kInvalidReport, "answers.a: bad");
  CHECK(error.status == 400);
  CHECK(error.code == "invalid_report");
  CHECK(error.message == "answers.a: bad");
  CHECK(ApiErrorFor(WireCode::kEstimationLimit, "").status == 429);
  CHECK(ApiErrorFor(WireCode::kStorageUnavailable, "").status == 503);
}

TEST_CASE("every kind of error maps to a code of its kind") {
  for (const ErrorCode kind : kAllKinds) {
    INFO(static_cast<int>(kind));
    bool has_row = false;
    for (const WireError& row : WireErrors()) has_row = has_row || row.kind == kind;
    CHECK(has_row);
    const Error error = MakeError("m", kind);
    const auto server_wide = ServerWideCode(kind);
    for (const WireError& row : WireErrors()) {
      const ApiError mapped = FromError(error, row.code);
      CHECK(mapped.message == "m");
      if (!server_wide || row.kind == kind) {
        // About the request (or named in its own kind here): the caller's code.
        CHECK(mapped.code == row.name);
      } else {
        // About the server's state: its kind's code, whatever the caller expected.
        CHECK(mapped.code == WireErrorOf(*server_wide).name);
        CHECK(WireErrorOf(*server_wide).kind == kind);
      }
    }
  }
  CHECK(FromError(MakeError("gone", ErrorCode::kCancelled), WireCode::kInvalidQuery).code == "estimation_cancelled");
  CHECK(FromError(MakeError("gone", ErrorCode::kCancelled), WireCode::kExportCancelled).code == "export_cancelled");
  CHECK(FromError(MakeError("bad"), WireCode::kInvalidQuery).code == "invalid_query");
}

TEST_CASE("README's error table lists exactly the table's codes, with their statuses") {
  const std::map<std::string, int> readme = ReadmeTable();
  std::set<std::string> table;
  for (const WireError& row : WireErrors()) {
    const std::string name(row.name);
    table.insert(name);
    const auto found = readme.find(name);
    CHECK_MESSAGE(found != readme.end(), "README's error table lacks " << name);
    if (found != readme.end()) CHECK_MESSAGE(found->second == row.status, name << ": README says " << found->second);
  }
  for (const auto& [name, status] : readme) {
    CHECK_MESSAGE(table.count(name) == 1, "README lists " << name << ", which the server never answers");
  }
}
