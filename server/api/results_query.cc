#include "server/api/results_query.h"

#include <algorithm>
#include <optional>
#include <vector>

#include "core/survey/results.h"
#include "server/http/wire_errors.h"

namespace deniable::server {
namespace {

ApiError InvalidQuery(const std::string& message) { return ApiErrorFor(WireCode::kInvalidQuery, message); }

// A survey-wide name, or "<question id>.<name>" (results.h).
std::optional<ApiError> RejectUnknownNames(const nlohmann::json& options) {
  const auto known = PublicEstimateOptionNames();
  for (const auto& item : options.items()) {
    const auto dot = item.key().find('.');
    const std::string name = dot == std::string::npos ? item.key() : item.key().substr(dot + 1);
    if (std::find(known.begin(), known.end(), name) != known.end()) continue;
    std::string list;
    for (const auto& name : known) list += (list.empty() ? "" : ", ") + name;
    return InvalidQuery("unknown query parameter \"" + item.key() + "\": results accept " + list +
                        ", each also as <question id>.<name> for one question");
  }
  return std::nullopt;
}

}  // namespace

std::variant<EstimateQuery, ApiError> ParseResultsQuery(const Survey& survey, const ApiRequest& request) {
  if (!request.repeated_query.empty()) {
    return InvalidQuery("query parameter " + request.repeated_query.front() + " is given more than once");
  }
  nlohmann::json options = nlohmann::json::object();
  for (const auto& [name, text] : request.query) options[name] = text;
  if (auto error = RejectUnknownNames(options)) return *error;
  auto key = EstimateOptionsKey(&survey, options);
  if (!key) return InvalidQuery("query parameter " + key.error());
  if (auto status = ValidateEstimateOptions(survey, options); !status) return InvalidQuery(status.error());
  return EstimateQuery{std::move(options), std::move(key).value()};
}

}  // namespace deniable::server
