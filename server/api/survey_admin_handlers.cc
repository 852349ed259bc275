#include "server/api/survey_admin_handlers.h"

#include <iostream>

#include "core/common/json_fields.h"
#include "server/base/utc_time.h"
#include "server/http/json_limits.h"
#include "server/http/wire_errors.h"
#include "server/surveys/survey_catalog.h"

namespace deniable::server {
namespace {

ApiError InvalidRequest(const std::string& message) { return ApiErrorFor(WireCode::kInvalidRequest, message); }

// {"status": "open" | "closed", "closes_at": time | null (optional)}.
std::variant<SurveyStatus, ApiError> ReadStatus(const ApiRequest& request) {
  auto document = ParseJsonBody(request.Header("content-type"), request.body);
  if (!document) return InvalidJson(document.error());
  if (auto status = RequireObject(*document, ""); !status) return InvalidRequest(status.error());
  if (auto status = RejectUnknownFields(*document, {"status", "closes_at"}, ""); !status) return InvalidRequest(status.error());
  auto name = ReadString(*document, "status", 16, true, "");
  if (!name) return InvalidRequest(name.error());
  if (*name != "open" && *name != "closed") {
    return InvalidRequest("status: must be \"open\" or \"closed\", but is \"" + *name + "\"");
  }
  SurveyStatus status{*name == "closed", ""};
  if (document->contains("closes_at") && !document->at("closes_at").is_null()) {
    const auto& value = document->at("closes_at");
    const auto seconds = value.is_string() ? ParseRfc3339(value.get<std::string>()) : std::nullopt;
    if (!seconds) {
      return InvalidRequest("closes_at: must be a UTC time like \"2026-12-01T18:00:00Z\" or null (RFC 3339, years 1970 "
                            "to 9999; an offset such as +01:00 is converted to UTC), but is " + value.dump());
    }
    status.closes_at = FormatUtc(*seconds);  // stored in one form: the instant, in UTC
  }
  return status;
}

}  // namespace

nlohmann::json StatusJson(const SurveyEntry& entry) {
  const SurveyStatus status = entry.status();
  const auto reason = entry.ClosedReason(NowSeconds());
  nlohmann::json json = {{"survey", entry.id()},
                         {"status", status.closed ? "closed" : "open"},
                         {"closes_at", status.closes_at.empty() ? nlohmann::json(nullptr) : nlohmann::json(status.closes_at)},
                         {"accepting", !reason}};
  if (reason) json["message"] = *reason;
  return json;
}

ApiResult HandleGetStatus(ApiContext& context, const ApiRequest& request) {
  const auto entry = context.registry.Find(request.path_params.at(0));
  if (!entry) return SurveyNotFound(request.path_params.at(0));
  return JsonResponse(200, StatusJson(*entry));
}

ApiResult HandleSetStatus(ApiContext& context, const ApiRequest& request) {
  if (auto denied = RequireAdmin(context, request)) return *denied;
  const auto entry = context.registry.Find(request.path_params.at(0));
  if (!entry) return SurveyNotFound(request.path_params.at(0));
  auto status = ReadStatus(request);
  if (auto* error = std::get_if<ApiError>(&status)) return *error;
  const SurveyStatus& wanted = std::get<SurveyStatus>(status);
  if (auto saved = context.storage.SetStatus({entry->id(), wanted.closed, wanted.closes_at}); !saved) {
    std::cerr << "error: storing a survey's status failed: " << saved.error() << std::endl;
    return ApiErrorFor(WireCode::kStorageFailed, "the survey's status could not be stored; nothing changed");
  }
  entry->SetStatus(wanted);
  return JsonResponse(200, StatusJson(*entry));
}

ApiResult HandleDeleteSurvey(ApiContext& context, const ApiRequest& request) {
  if (auto denied = RequireAdmin(context, request)) return *denied;
  const auto entry = context.registry.Find(request.path_params.at(0));
  if (!entry) return SurveyNotFound(request.path_params.at(0));
  auto document = ParseJsonBody(request.Header("content-type"), request.body);
  if (!document) return InvalidJson(document.error());
  if (auto status = RequireObject(*document, ""); !status) return InvalidRequest(status.error());
  if (auto status = RejectUnknownFields(*document, {"confirm"}, ""); !status) return InvalidRequest(status.error());
  if (!document->contains("confirm") || document->at("confirm") != entry->id()) {
    return InvalidRequest("confirm: must be the survey's id, \"" + entry->id() +
                          "\": deleting a survey deletes its reports, invitation codes and releases for good");
  }
  auto deleted = context.storage.DeleteSurvey(entry->id());
  if (!deleted && deleted.error_code() == ErrorCode::kNotFound) {
    return ApiErrorFor(WireCode::kSurveyDeleted, "survey \"" + entry->id() + "\" was deleted by another request");
  }
  if (!deleted) {
    std::cerr << "error: deleting a survey failed: " << deleted.error() << std::endl;
    return ApiErrorFor(WireCode::kStorageFailed, "the survey could not be deleted; nothing was deleted");
  }
  const std::int64_t reports = *deleted;
  context.registry.Remove(entry->id());
  return JsonResponse(200, {{"deleted", entry->id()},
                            {"reports_deleted", reports},
                            {"message", "survey \"" + entry->id() + "\" and its " + std::to_string(reports) +
                                            " report(s), invitation codes and releases are deleted for good; its id "
                                            "will not be used again"}});
}

ApiResult HandleCorrectWording(ApiContext& context, const ApiRequest& request) {
  if (auto denied = RequireAdmin(context, request)) return *denied;
  const auto entry = context.registry.Find(request.path_params.at(0));
  if (!entry) return SurveyNotFound(request.path_params.at(0));
  auto document = ParseJsonBody(request.Header("content-type"), request.body);
  if (!document) return InvalidJson(document.error());
  auto corrected = CorrectWording(context.storage, *entry, *document);
  if (!corrected) {
    std::cerr << "error: storing a correction failed: " << corrected.error() << std::endl;
    if (corrected.error_code() == ErrorCode::kUnavailable) return FromError(corrected.failure(), WireCode::kStorageFailed);
    return ApiErrorFor(WireCode::kStorageFailed, "the correction could not be stored; nothing changed");
  }
  switch (corrected->outcome) {
    case CorrectionOutcome::kCorrected:
      return JsonResponse(200, {{"survey", entry->id()}, {"correction", corrected->correction},
                                {"definition", entry->definition()}});
    case CorrectionOutcome::kInvalid:
      return ApiErrorFor(WireCode::kInvalidSurvey, corrected->message);
    case CorrectionOutcome::kNothingChanged:
      return ApiErrorFor(WireCode::kInvalidRequest, corrected->message);
    case CorrectionOutcome::kNeedsNewVersion:
      return ApiErrorFor(WireCode::kNeedsNewVersion, corrected->message);
    case CorrectionOutcome::kCorrectedMeanwhile:
      return ApiErrorFor(WireCode::kCorrectedMeanwhile, corrected->message);
    case CorrectionOutcome::kDeleted:
      return ApiErrorFor(WireCode::kSurveyDeleted, "survey \"" + entry->id() + "\" was deleted by another request");
  }
  return ApiErrorFor(WireCode::kInternal, "unexpected correction outcome");
}

// Public, as the definition is: the words before and after were both served.
ApiResult HandleGetCorrections(ApiContext& context, const ApiRequest& request) {
  const auto entry = context.registry.Find(request.path_params.at(0));
  if (!entry) return SurveyNotFound(request.path_params.at(0));
  return JsonResponse(200, {{"survey", entry->id()}, {"corrections", entry->corrections()}});
}

}  // namespace deniable::server
