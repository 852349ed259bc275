#include "server/api/api_context.h"

namespace deniable::server {

std::optional<ApiError> RequireAdmin(const ApiContext& context, const ApiRequest& request) {
  const std::string authorization = request.Header("authorization");
  if (authorization.empty()) {
    return ApiError{401, "admin_token_missing",
                    "this endpoint needs the admin token: send the header \"Authorization: Bearer <token>\" "
                    "(the token is printed when the server starts and kept in DATA_DIR/admin-token)"};
  }
  if (!context.admin_token.Matches(BearerToken(authorization))) {
    return ApiError{401, "admin_token_invalid", "the admin token is wrong"};
  }
  return std::nullopt;
}

std::optional<ApiError> CheckResultsAccess(const ApiContext& context, const SurveyEntry& entry,
                                           const ApiRequest& request) {
  if (entry.survey().results == ResultsVisibility::kPublic) return std::nullopt;
  if (request.Header("authorization").empty()) {
    return ApiError{403, "results_admin_only",
                    "the results of survey \"" + entry.id() + "\" are admin-only: send \"Authorization: Bearer <token>\""};
  }
  return RequireAdmin(context, request);
}

ApiError SurveyNotFound(const std::string& id) {
  return ApiError{404, "survey_not_found", "no survey with id \"" + id + "\""};
}

ApiError InvalidJson(const std::string& message) { return ApiError{400, "invalid_json", message}; }

}  // namespace deniable::server
