#include "server/api/api_context.h"

#include "server/http/wire_errors.h"
#include "server/surveys/estimation_gate.h"

namespace deniable::server {

std::optional<ApiError> RequireAdmin(const ApiContext& context, const ApiRequest& request) {
  const std::string authorization = request.Header("authorization");
  if (authorization.empty()) {
    return ApiErrorFor(WireCode::kAdminTokenMissing,
                       "this endpoint needs the admin token: send the header \"Authorization: Bearer <token>\" "
                       "(the token is printed when the server starts; it is kept in DATA_DIR/admin-token, or in the database "
                       "with --database)");
  }
  if (!context.admin_token.Matches(BearerToken(authorization))) {
    return ApiErrorFor(WireCode::kAdminTokenInvalid, "the admin token is wrong");
  }
  return std::nullopt;
}

std::optional<ApiError> CheckResultsAccess(const ApiContext& context, const SurveyEntry& entry,
                                           const ApiRequest& request) {
  if (entry.survey().results == ResultsVisibility::kPublic) return std::nullopt;
  if (request.Header("authorization").empty()) {
    return ApiErrorFor(WireCode::kResultsAdminOnly, "the results of survey \"" + entry.id() +
                                                        "\" are admin-only: send \"Authorization: Bearer <token>\"");
  }
  return RequireAdmin(context, request);
}

std::string RequesterClient(const ApiContext& context, const ApiRequest& request) {
  return ClientKey(context.trusted_proxies.ClientAddress(request.remote_address, request.Header("x-forwarded-for")));
}

ApiError SurveyNotFound(const std::string& id) {
  return ApiErrorFor(WireCode::kSurveyNotFound, "no survey with id \"" + id + "\"");
}

ApiError InvalidJson(const std::string& message) { return ApiErrorFor(WireCode::kInvalidJson, message); }

}  // namespace deniable::server
