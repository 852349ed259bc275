#include "server/results_handlers.h"

#include "server/csv_export.h"
#include "server/results_query.h"

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

// The survey's results document for the query's numeric options, or the
// error that forbids it (access is checked before the query is parsed).
std::variant<ResultsCache::Lookup, ApiError> ReadableResults(ApiContext& context, const ApiRequest& request) {
  const auto entry = context.registry.Find(request.path_params.at(0));
  if (!entry) return SurveyNotFound(request.path_params.at(0));
  if (auto denied = CheckResultsAccess(context, *entry, request)) return *denied;
  auto options = ParseResultsQuery(entry->survey(), request);
  if (auto* error = std::get_if<ApiError>(&options)) return *error;
  try {
    return entry->Results(std::get<NumericEstimateOptions>(options), context.registry.estimation_gate());
  } catch (const EstimationBusy&) {
    return ApiError{503, "estimation_busy",
                    "too many results computations are running or queued; retry in a few seconds"};
  }
}

// "miss" when this request computed the document, "hit" when it was served
// from the cache or waited for an identical request's computation.
void AddCacheHeader(ApiResponse& response, const ResultsCache::Lookup& lookup) {
  response.headers.emplace_back("X-Results-Cache", lookup.computed ? "miss" : "hit");
}

}  // namespace

ApiResult HandleResults(ApiContext& context, const ApiRequest& request) {
  auto results = ReadableResults(context, request);
  if (auto* error = std::get_if<ApiError>(&results)) return *error;
  const auto& lookup = std::get<ResultsCache::Lookup>(results);
  ApiResponse response = JsonResponse(200, *lookup.document);
  AddCacheHeader(response, lookup);
  return response;
}

ApiResult HandleResultsCsv(ApiContext& context, const ApiRequest& request) {
  auto results = ReadableResults(context, request);
  if (auto* error = std::get_if<ApiError>(&results)) return *error;
  const auto& lookup = std::get<ResultsCache::Lookup>(results);
  ApiResponse response{200, "text/csv; charset=utf-8", ResultsToCsv(*lookup.document), {}};
  AddCacheHeader(response, lookup);
  response.headers.emplace_back("Content-Disposition",
                                "attachment; filename=\"" + request.path_params.at(0) + "-results.csv\"");
  return response;
}

}  // namespace deniable::server
