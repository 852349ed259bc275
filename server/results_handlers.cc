#include "server/results_handlers.h"

#include "server/csv_export.h"

namespace deniable::server {
namespace {

std::optional<ApiError> CheckResultsAccess(const ApiContext& context, const SurveyEntry& entry,
                                           const ApiRequest& request) {
  if (entry.survey().results == ResultsVisibility::kPublic) return std::nullopt;
  if (request.Header("authorization").empty()) {
    return ApiError{403, "results_admin_only",
                    "the results of survey \"" + entry.id() + "\" are admin-only: send \"Authorization: Bearer <token>\""};
  }
  return RequireAdmin(context, request);
}

// The survey's results document, or the error that forbids it.
std::variant<nlohmann::json, ApiError> ReadableResults(ApiContext& context, const ApiRequest& request) {
  const auto entry = context.registry.Find(request.path_params.at(0));
  if (!entry) return SurveyNotFound(request.path_params.at(0));
  if (auto denied = CheckResultsAccess(context, *entry, request)) return *denied;
  return entry->Results();
}

}  // namespace

ApiResult HandleResults(ApiContext& context, const ApiRequest& request) {
  auto results = ReadableResults(context, request);
  if (auto* error = std::get_if<ApiError>(&results)) return *error;
  return JsonResponse(200, std::get<nlohmann::json>(results));
}

ApiResult HandleResultsCsv(ApiContext& context, const ApiRequest& request) {
  auto results = ReadableResults(context, request);
  if (auto* error = std::get_if<ApiError>(&results)) return *error;
  const auto& document = std::get<nlohmann::json>(results);
  ApiResponse response{200, "text/csv; charset=utf-8", ResultsToCsv(document), {}};
  response.headers.emplace_back("Content-Disposition",
                                "attachment; filename=\"" + request.path_params.at(0) + "-results.csv\"");
  return response;
}

}  // namespace deniable::server
