#include "server/api/routes.h"

#include "server/api/advice_handler.h"
#include "server/api/invitation_handler.h"
#include "server/api/release_handlers.h"
#include "server/api/report_export_handlers.h"
#include "server/api/report_handler.h"
#include "server/api/analysis_handler.h"
#include "server/api/results_handlers.h"
#include "server/api/survey_admin_handlers.h"
#include "server/api/survey_handlers.h"

namespace deniable::server {
namespace {

// Survey ids as core ValidateId accepts them.
const std::string kId = "([A-Za-z0-9_-]{1,64})";

using ContextHandler = ApiResult (*)(ApiContext&, const ApiRequest&);

RouteHandler WithContext(ApiContext& context, ContextHandler handler) {
  return [&context, handler](const ApiRequest& request) { return handler(context, request); };
}

using AsyncContextHandler = void (*)(ApiContext&, const ApiRequest&, Respond);

AsyncRouteHandler WithContext(ApiContext& context, AsyncContextHandler handler) {
  return [&context, handler](const ApiRequest& request, Respond respond) { handler(context, request, std::move(respond)); };
}

RouteHandler PageHandler(const StaticFiles& pages, std::string file_name) {
  return [&pages, file_name](const ApiRequest& request) -> ApiResult { return pages.Page(file_name, request); };
}

}  // namespace

std::vector<Route> ApiRoutes(ApiContext& context) {
  return {
      {HttpMethod::kGet, "/api/health", HandleHealth, nullptr, true},
      {HttpMethod::kGet, "/api/surveys", WithContext(context, HandleListSurveys)},
      {HttpMethod::kPost, "/api/surveys", WithContext(context, HandleCreateSurvey)},
      {HttpMethod::kGet, "/api/surveys/" + kId, WithContext(context, HandleGetSurvey)},
      {HttpMethod::kPost, "/api/surveys/" + kId + "/reports", nullptr, WithContext(context, HandleSubmitReport), true,
       ReportAccepted},
      {HttpMethod::kPost, "/api/surveys/" + kId + "/invitations", WithContext(context, HandleCreateInvitations)},
      {HttpMethod::kGet, "/api/surveys/" + kId + "/invitations", WithContext(context, HandleCountInvitations)},
      {HttpMethod::kGet, "/api/surveys/" + kId + "/state", WithContext(context, HandleGetPublicState)},
      {HttpMethod::kGet, "/api/surveys/" + kId + "/status", WithContext(context, HandleGetStatus)},
      {HttpMethod::kPost, "/api/surveys/" + kId + "/status", WithContext(context, HandleSetStatus)},
      {HttpMethod::kPost, "/api/surveys/" + kId + "/delete", WithContext(context, HandleDeleteSurvey)},
      {HttpMethod::kPost, "/api/surveys/" + kId + "/corrections", WithContext(context, HandleCorrectWording)},
      {HttpMethod::kGet, "/api/surveys/" + kId + "/corrections", WithContext(context, HandleGetCorrections)},
      {HttpMethod::kPost, "/api/surveys/" + kId + "/invitations/check", WithContext(context, HandleCheckInvitation)},
      {HttpMethod::kGet, "/api/surveys/" + kId + "/invitation-key", WithContext(context, HandleInvitationKey)},
      {HttpMethod::kPost, "/api/surveys/" + kId + "/tokens", WithContext(context, HandleIssueToken)},
      {HttpMethod::kGet, "/api/surveys/" + kId + "/results", WithContext(context, HandleResults)},
      {HttpMethod::kGet, "/api/surveys/" + kId + "/results\\.csv", WithContext(context, HandleResultsCsv)},
      {HttpMethod::kGet, "/api/surveys/" + kId + "/reports\\.csv", WithContext(context, HandleReportsCsv)},
      {HttpMethod::kGet, "/api/surveys/" + kId + "/reports\\.json", WithContext(context, HandleReportsJson)},
      {HttpMethod::kGet, "/api/surveys/" + kId + "/codebook\\.json", WithContext(context, HandleCodebook)},
      {HttpMethod::kGet, "/api/surveys/" + kId + "/analysis", WithContext(context, HandleAnalysis)},
      {HttpMethod::kGet, "/api/surveys/" + kId + "/analysis\\.csv", WithContext(context, HandleAnalysisCsv)},
      {HttpMethod::kPost, "/api/surveys/" + kId + "/questions/" + kId + "/releases",
       WithContext(context, HandleCreateRelease)},
      {HttpMethod::kGet, "/api/surveys/" + kId + "/questions/" + kId + "/releases", WithContext(context, HandleGetLedger)},
      {HttpMethod::kPost, "/api/surveys/" + kId + "/questions/" + kId + "/releases/" + kId + "/cancel",
       WithContext(context, HandleCancelScheduledRelease)},
      {HttpMethod::kGet, "/api/surveys/" + kId + "/questions/" + kId + "/counts", WithContext(context, HandleExactCounts)},
      {HttpMethod::kGet, "/api/advice", HandleAdvice},
      {HttpMethod::kPost, "/api/advice", WithContext(context, HandleDesignAdvice)},
  };
}

std::vector<Route> PageRoutes(const StaticFiles& pages) {
  return {
      {HttpMethod::kGet, "/", PageHandler(pages, "index.html")},
      {HttpMethod::kGet, "/s/" + kId, PageHandler(pages, "survey.html")},
      {HttpMethod::kGet, "/results/" + kId, PageHandler(pages, "dashboard.html")},
      {HttpMethod::kGet, "/create", PageHandler(pages, "create.html")},
      {HttpMethod::kGet, "/manage", PageHandler(pages, "manage.html")},
      {HttpMethod::kGet, "/assets/(.+)",
       [&pages](const ApiRequest& request) -> ApiResult { return pages.Asset(request.path_params.at(0), request); }},
  };
}

}  // namespace deniable::server
