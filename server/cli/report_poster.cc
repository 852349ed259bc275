#include "server/cli/report_poster.h"

#include <httplib.h>

namespace deniable::server {
namespace {

// The scheme, host and port of `url`; an error naming what is wrong.
Status CheckBaseUrl(const std::string& url) {
  const auto scheme_end = url.find("://");
  if (scheme_end == std::string::npos || (url.compare(0, scheme_end, "http") != 0 && url.compare(0, scheme_end, "https") != 0)) {
    return MakeError("--post must be a server's address like http://127.0.0.1:8080, but is \"" + url + "\"");
  }
  const std::string rest = url.substr(scheme_end + 3);
  if (rest.empty() || rest.find('/') != std::string::npos) {
    return MakeError("--post must be a server's address without a path (http://host:port), but is \"" + url + "\"");
  }
  return OkStatus();
}

std::string Shortened(const std::string& body) { return body.size() > 300 ? body.substr(0, 300) + "..." : body; }

}  // namespace

ReportPoster::ReportPoster(std::unique_ptr<httplib::Client> client, std::string path)
    : client_(std::move(client)), path_(std::move(path)) {}

ReportPoster::~ReportPoster() = default;

Result<std::unique_ptr<ReportPoster>> ReportPoster::Open(const std::string& base_url, const std::string& survey_id) {
  DENIABLE_TRY(CheckBaseUrl(base_url));
  auto client = std::make_unique<httplib::Client>(base_url);
  if (!client->is_valid()) return MakeError("--post: cannot use \"" + base_url + "\"");
  client->set_keep_alive(true);
  client->set_connection_timeout(10);
  client->set_read_timeout(30);
  return std::unique_ptr<ReportPoster>(new ReportPoster(std::move(client), "/api/surveys/" + survey_id + "/reports"));
}

Status ReportPoster::Post(const nlohmann::json& report) {
  const auto response = client_->Post(path_, report.dump(), "application/json");
  if (!response) return MakeError("--post: the server could not be reached (" + httplib::to_string(response.error()) + ")");
  if (response->status != 201) {
    return MakeError("--post: the server answered " + std::to_string(response->status) + ": " + Shortened(response->body));
  }
  ++posted_;
  return OkStatus();
}

}  // namespace deniable::server
