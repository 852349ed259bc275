#include "server/api/report_export_handlers.h"

#include <iostream>

#include "server/http/wire_errors.h"
#include "server/surveys/report_export.h"

namespace deniable::server {
namespace {

// The largest body served: the connection gate holds whole responses (and
// all of them together under its own budget of 512 MiB), so a larger export
// is refused with a pointer to the CLI, which streams to disk.
constexpr std::size_t kMaxExportBytes = std::size_t{192} << 20;

std::variant<std::shared_ptr<SurveyEntry>, ApiError> AdminSurvey(ApiContext& context, const ApiRequest& request) {
  if (auto denied = RequireAdmin(context, request)) return *denied;
  auto entry = context.registry.Find(request.path_params.at(0));
  if (!entry) return SurveyNotFound(request.path_params.at(0));
  return entry;
}

ApiResponse Busy() {
  ApiResponse response = ErrorResponse(ApiErrorFor(
      WireCode::kExportBusy, "another export of reports is running and one more is waiting; retry in a few seconds"));
  response.headers.emplace_back("Retry-After", "5");
  return response;
}

ApiResult Export(ApiContext& context, const ApiRequest& request, ExportFormat format) {
  auto found = AdminSurvey(context, request);
  if (auto* error = std::get_if<ApiError>(&found)) return *error;
  const auto& entry = std::get<std::shared_ptr<SurveyEntry>>(found);
  const auto gone = request.client_gone;
  auto permit = context.registry.estimation_limits().exports.Enter([gone] { return gone->load(); });
  if (!permit)
    return gone->load() ? ApiResult(ApiErrorFor(WireCode::kExportCancelled, "the client disconnected")) : Busy();
  std::string body;
  bool too_large = false;
  auto written = WriteReportExport(context.storage, entry->survey(), format, [&](std::string_view chunk) {
    too_large = too_large || body.size() + chunk.size() > kMaxExportBytes;
    if (!too_large) body.append(chunk);
    return !too_large && !gone->load();
  });
  if (too_large) {
    return ApiErrorFor(
        WireCode::kExportTooLarge,
        "the export is larger than " + std::to_string(kMaxExportBytes >> 20) +
            " MiB, more than the server sends in one response: write it with `deniable export --data DIR "
            "--survey " +
            entry->id() +
            " --format csv --out FILE` (the CSV is about 8 times smaller than "
            "the JSON)");
  }
  if (!written) {
    std::cerr << "export: survey \"" << entry->id() << "\": " << written.error() << std::endl;
    return ApiErrorFor(WireCode::kExportFailed, "the export did not finish: " + written.error());
  }
  const bool csv = format == ExportFormat::kCsv;
  ApiResponse response{200, csv ? "text/csv; charset=utf-8" : "application/json", std::move(body), {}};
  response.headers.emplace_back("Content-Disposition", "attachment; filename=\"" + entry->id() + "-reports." +
                                                           (csv ? "csv" : "json") + "\"");
  response.headers.emplace_back("X-Export-Rows", std::to_string(written->rows));
  return response;
}

}  // namespace

ApiResult HandleReportsCsv(ApiContext& context, const ApiRequest& request) {
  return Export(context, request, ExportFormat::kCsv);
}

ApiResult HandleReportsJson(ApiContext& context, const ApiRequest& request) {
  return Export(context, request, ExportFormat::kJson);
}

ApiResult HandleCodebook(ApiContext& context, const ApiRequest& request) {
  auto found = AdminSurvey(context, request);
  if (auto* error = std::get_if<ApiError>(&found)) return *error;
  return JsonResponse(200, ReportExport(std::get<std::shared_ptr<SurveyEntry>>(found)->survey()).Codebook());
}

}  // namespace deniable::server
