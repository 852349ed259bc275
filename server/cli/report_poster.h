// `deniable simulate --post URL`: sends each simulated report to a running
// server, as the survey page would (POST /api/surveys/{id}/reports), so a demo
// or a test can fill a survey with realistic reports. Only the perturbed
// reports travel, never the simulated true answers. Sequential, one
// keep-alive connection; a refused report stops the simulation with the
// server's answer.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "core/common/result.h"

namespace httplib {
class Client;
}

namespace deniable::server {

class ReportPoster {
 public:
  // `base_url`: "http://host:port" or "https://host:port" (no path).
  static Result<std::unique_ptr<ReportPoster>> Open(const std::string& base_url, const std::string& survey_id);
  ~ReportPoster();

  Status Post(const nlohmann::json& report);
  std::int64_t posted() const { return posted_; }

 private:
  ReportPoster(std::unique_ptr<httplib::Client> client, std::string path);

  std::unique_ptr<httplib::Client> client_;
  std::string path_;
  std::int64_t posted_ = 0;
};

}  // namespace deniable::server
