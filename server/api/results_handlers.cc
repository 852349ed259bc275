#include "server/api/results_handlers.h"

#include <iostream>

#include "server/api/results_query.h"
#include "server/http/wire_errors.h"
#include "server/surveys/csv_export.h"

namespace deniable::server {
namespace {

// The survey's results document for the query's estimation options, or the
// error that forbids it (access is checked before the query is parsed).
struct ReadableResult {
  std::shared_ptr<SurveyEntry> entry;
  ResultsCache::Lookup lookup;
};

std::variant<ReadableResult, ApiError> ReadableResults(ApiContext& context, const ApiRequest& request) {
  const auto entry = context.registry.Find(request.path_params.at(0));
  if (!entry) return SurveyNotFound(request.path_params.at(0));
  if (auto denied = CheckResultsAccess(context, *entry, request)) return *denied;
  auto options = ParseResultsQuery(entry->survey(), request);
  if (auto* error = std::get_if<ApiError>(&options)) return *error;
  EstimationRequester requester;
  requester.client = RequesterClient(context, request);
  // The admin (checked above for admin-only surveys) is not limited per client.
  requester.trusted = entry->survey().results != ResultsVisibility::kPublic ||
                      (!request.Header("authorization").empty() && !RequireAdmin(context, request));
  requester.client_gone = request.client_gone;
  auto lookup = entry->Results(std::get<EstimateQuery>(options), context.registry.estimation_limits(), requester);
  if (lookup) return ReadableResult{entry, std::move(lookup).value()};
  switch (lookup.error_code()) {
    case ErrorCode::kBusy:
      return ApiErrorFor(WireCode::kEstimationBusy,
                         "too many results computations with custom options are running or queued; retry in a few "
                         "seconds (the default options are computed separately and cached)");
    case ErrorCode::kConflict:
      return ApiErrorFor(WireCode::kEstimationLimit,
                         "a results computation with custom options from your address is still running or queued: "
                         "one at a time per client; retry when it has finished (the default options are not limited)");
    case ErrorCode::kCancelled:
      std::cerr << "results: survey \"" << entry->id() << "\": estimation stopped, the client disconnected" << std::endl;
      return ApiErrorFor(WireCode::kEstimationCancelled, "the client disconnected, so the computation was stopped");
    default:
      return FromError(lookup.failure(), WireCode::kInternal);
  }
}

// 503 and 429 tell the client when to retry.
ApiResponse ErrorWithRetryAfter(const ApiError& error) {
  ApiResponse response = ErrorResponse(error);
  if (error.status == 503 || error.status == 429) response.headers.emplace_back("Retry-After", "5");
  return response;
}

// "miss" when this request computed the document, "hit" when it was served
// from the cache or waited for an identical request's computation.
void AddCacheHeader(ApiResponse& response, const ResultsCache::Lookup& lookup) {
  response.headers.emplace_back("X-Results-Cache", lookup.computed ? "miss" : "hit");
}

}  // namespace

ApiResult HandleResults(ApiContext& context, const ApiRequest& request) {
  auto results = ReadableResults(context, request);
  if (auto* error = std::get_if<ApiError>(&results)) return ErrorWithRetryAfter(*error);
  const auto& lookup = std::get<ReadableResult>(results).lookup;
  ApiResponse response = JsonResponse(200, *lookup.document);
  AddCacheHeader(response, lookup);
  return response;
}

ApiResult HandleResultsCsv(ApiContext& context, const ApiRequest& request) {
  auto results = ReadableResults(context, request);
  if (auto* error = std::get_if<ApiError>(&results)) return ErrorWithRetryAfter(*error);
  const auto& [entry, lookup] = std::get<ReadableResult>(results);
  ApiResponse response{200, "text/csv; charset=utf-8", ResultsToCsv(entry->survey(), *lookup.document, OptionsQueryText(request.query)), {}};
  AddCacheHeader(response, lookup);
  response.headers.emplace_back("Content-Disposition",
                                "attachment; filename=\"" + request.path_params.at(0) + "-results.csv\"");
  return response;
}

}  // namespace deniable::server
