#include "server/api/analysis_handler.h"

#include <iostream>
#include <set>
#include <sstream>

#include "core/analysis/analysis.h"
#include "core/survey/interval_target.h"
#include "server/http/wire_errors.h"
#include "server/surveys/csv_export.h"
#include "server/surveys/estimation_gate.h"

namespace deniable::server {
namespace {

const std::set<std::string> kParameters = {"by", "question", "cross", "regress", "on", "combinations", "interval"};

nlohmann::json CommaList(const std::string& text) {
  auto list = nlohmann::json::array();
  std::stringstream stream(text);
  for (std::string item; std::getline(stream, item, ',');) list.push_back(item);
  return list;
}

ApiError InvalidAnalysis(const std::string& message) { return ApiErrorFor(WireCode::kInvalidAnalysis, message); }

// The spec of the query's analysis and its estimation options, or the error naming what is wrong.
std::variant<std::pair<nlohmann::json, nlohmann::json>, ApiError> ParseQuery(const ApiRequest& request) {
  for (const auto& name : request.repeated_query) return InvalidAnalysis(name + ": given more than once");
  for (const auto& [name, value] : request.query) {
    if (!kParameters.count(name)) {
      return InvalidAnalysis(name + ": unknown parameter (expected by and question, cross, regress and on, or "
                                    "combinations; and interval)");
    }
  }
  nlohmann::json spec = nlohmann::json::object();
  const auto& query = request.query;
  if (query.count("by") || query.count("question")) {
    spec = {{"by", query.count("by") ? query.at("by") : ""}, {"question", query.count("question") ? query.at("question") : ""}};
  }
  if (query.count("cross")) {
    if (!spec.empty()) return InvalidAnalysis("cross: one analysis at a time (by/question, cross, or regress/on)");
    spec = {{"cross", CommaList(query.at("cross"))}};
  }
  if (query.count("regress") || query.count("on")) {
    if (!spec.empty()) return InvalidAnalysis("regress: one analysis at a time (by/question, cross, or regress/on)");
    spec = {{"regress", query.count("regress") ? query.at("regress") : ""},
            {"on", query.count("on") ? CommaList(query.at("on")) : nlohmann::json::array()}};
  }
  if (query.count("combinations")) {
    if (!spec.empty()) return InvalidAnalysis("combinations: one analysis at a time");
    spec = {{"combinations", query.at("combinations")}};
  }
  if (spec.empty()) return InvalidAnalysis("name an analysis: by and question, cross, regress and on, or combinations=open");
  nlohmann::json options = nlohmann::json::object();
  if (query.count("interval")) options["interval"] = query.at("interval");
  return std::make_pair(spec, options);
}

ApiResponse AnalysisErrorWithRetryAfter(const ApiError& error) {
  ApiResponse response = ErrorResponse(error);
  if (error.status == 503 || error.status == 429) response.headers.emplace_back("Retry-After", "5");
  return response;
}

// The analysis's document for the request, or the response that refuses it.
struct ServedAnalysis {
  std::shared_ptr<SurveyEntry> entry;
  std::unique_ptr<Analysis> analysis;  // parsed from the query: CsvRows
  ResultsCache::Lookup lookup;
};

std::variant<ServedAnalysis, ApiResponse> ServeAnalysis(ApiContext& context, const ApiRequest& request) {
  const auto entry = context.registry.Find(request.path_params.at(0));
  if (!entry) return ErrorResponse(SurveyNotFound(request.path_params.at(0)));
  if (auto denied = CheckResultsAccess(context, *entry, request)) return ErrorResponse(*denied);
  auto parsed = ParseQuery(request);
  if (auto* error = std::get_if<ApiError>(&parsed)) return ErrorResponse(*error);
  const auto& [spec, options] = std::get<std::pair<nlohmann::json, nlohmann::json>>(parsed);
  auto analysis = ParseAnalysis(entry->survey(), spec);
  if (!analysis) return ErrorResponse(InvalidAnalysis(analysis.error()));
  if (auto target = ReadIntervalTarget(options); !target) return ErrorResponse(InvalidAnalysis(target.error()));
  EstimationRequester requester;
  requester.client = RequesterClient(context, request);
  requester.trusted = entry->survey().results != ResultsVisibility::kPublic ||
                      (!request.Header("authorization").empty() && !RequireAdmin(context, request));
  requester.client_gone = request.client_gone;
  const std::string survey_id = entry->id();
  const SurveyEntry::ReportReader read = [&context, survey_id](const auto& visit, const auto& cancelled) {
    return context.storage.ForEachReportOf(survey_id, visit, cancelled);
  };
  auto lookup = entry->Analysis(spec, options, read, context.registry.estimation_limits(), requester);
  if (lookup) return ServedAnalysis{entry, std::move(analysis).value(), std::move(lookup).value()};
  switch (lookup.error_code()) {
    case ErrorCode::kBusy:
      return AnalysisErrorWithRetryAfter(
          ApiErrorFor(WireCode::kEstimationBusy, "too many computations are running or queued; retry in a few seconds"));
    case ErrorCode::kConflict:
      return AnalysisErrorWithRetryAfter(
          ApiErrorFor(WireCode::kEstimationLimit,
                      "a computation from your address is still running or queued: one at a time per client"));
    case ErrorCode::kCancelled:
      return ErrorResponse(
          ApiErrorFor(WireCode::kEstimationCancelled, "the client disconnected, so the computation was stopped"));
    default:  // the reports could not be read
      std::cerr << "analysis: survey \"" << survey_id << "\": " << lookup.error() << std::endl;
      return ErrorResponse(
          ApiErrorFor(WireCode::kStorageUnavailable, "the stored reports could not be read; retry later"));
  }
}

}  // namespace

ApiResult HandleAnalysis(ApiContext& context, const ApiRequest& request) {
  auto served = ServeAnalysis(context, request);
  if (auto* refused = std::get_if<ApiResponse>(&served)) return std::move(*refused);
  const auto& lookup = std::get<ServedAnalysis>(served).lookup;
  ApiResponse response = JsonResponse(200, *lookup.document);
  response.headers.emplace_back("X-Results-Cache", lookup.computed ? "miss" : "hit");
  return response;
}

ApiResult HandleAnalysisCsv(ApiContext& context, const ApiRequest& request) {
  auto served = ServeAnalysis(context, request);
  if (auto* refused = std::get_if<ApiResponse>(&served)) return std::move(*refused);
  const auto& [entry, analysis, lookup] = std::get<ServedAnalysis>(served);
  const nlohmann::json& document = *lookup.document;
  const std::vector<CsvRow> rows = document.contains("error") ? std::vector<CsvRow>() : analysis->CsvRows(document);
  ApiResponse response{200, "text/csv; charset=utf-8", AnalysisToCsv(entry->id(), OptionsQueryText(request.query), document, rows), {}};
  response.headers.emplace_back("X-Results-Cache", lookup.computed ? "miss" : "hit");
  response.headers.emplace_back("Content-Disposition", "attachment; filename=\"" + entry->id() + "-analysis.csv\"");
  return response;
}

}  // namespace deniable::server
