#include "server/report_handler.h"

#include <optional>

#include "core/survey/report.h"
#include "server/invitation_codes.h"
#include "server/json_limits.h"
#include "server/release_handlers.h"
#include "server/utc_time.h"

namespace deniable::server {
namespace {

constexpr const char* kInvitationHeader = "x-invitation-code";

ApiError InvitationRejected() {
  return ApiError{403, "invitation_invalid", "the invitation code is not valid for this survey or was already used"};
}

// The hash of the request's invitation code, if the survey needs one.
std::variant<std::optional<std::string>, ApiError> InvitationCodeHash(const SurveyEntry& entry,
                                                                      const ApiRequest& request) {
  if (entry.survey().access != Access::kInvitation) return std::optional<std::string>();
  const std::string received = request.Header(kInvitationHeader);
  if (received.empty()) {
    return ApiError{403, "invitation_required",
                    "survey \"" + entry.id() + "\" is by invitation: send your code in the X-Invitation-Code header"};
  }
  const auto code = NormalizeInvitationCode(received);
  if (!code) return InvitationRejected();
  return std::optional<std::string>(HashInvitationCode(*code));
}

ApiResult SubmitOutcomeToResult(SubmitOutcome outcome) {
  switch (outcome) {
    case SubmitOutcome::kCommitted:
      return ReportAccepted();
    case SubmitOutcome::kInvitationRejected:
      return InvitationRejected();
    case SubmitOutcome::kShuttingDown:
      return ApiError{503, "shutting_down", "the server is shutting down; send the report again in a moment"};
    case SubmitOutcome::kStorageFailed:
      break;
  }
  return ApiError{500, "storage_failed", "the report could not be stored; it was not counted, please send it again"};
}

// The report to store, or the error that refuses it.
std::variant<PendingReport, ApiError> ValidReport(ApiContext& context, const ApiRequest& request) {
  auto entry = context.registry.Find(request.path_params.at(0));
  if (!entry) return SurveyNotFound(request.path_params.at(0));
  // Checked first: a closed invitation survey spends no code.
  if (auto closed = entry->ClosedReason(NowUtc())) return ApiError{409, "survey_closed", *closed};
  auto code_hash = InvitationCodeHash(*entry, request);
  if (auto* error = std::get_if<ApiError>(&code_hash)) return *error;
  auto document = ParseJsonBody(request.Header("content-type"), request.body);
  if (!document) return InvalidJson(document.error());
  auto report = ParseReport(entry->survey(), *document);
  if (!report) return ApiError{400, "invalid_report", report.error()};
  // A model's report names its round: one for a closed or future round is refused.
  if (auto admitted = entry->Admits(*report); !admitted) return ApiError{409, "report_not_admitted", admitted.error()};
  ReportRecord record{entry->id(), document->dump(), std::get<std::optional<std::string>>(std::move(code_hash))};
  return PendingReport{entry, std::move(report).value(), std::move(record)};
}

}  // namespace

ApiResponse ReportAccepted() { return JsonResponse(201, {{"accepted", true}}); }

void HandleSubmitReport(ApiContext& context, const ApiRequest& request, Respond respond) {
  auto pending = ValidReport(context, request);
  if (auto* error = std::get_if<ApiError>(&pending)) return respond(*error);
  const std::shared_ptr<SurveyEntry> entry = std::get<PendingReport>(pending).survey;
  context.writer.SubmitAsync(std::get<PendingReport>(std::move(pending)),
                             [respond = std::move(respond), entry, &storage = context.storage](SubmitOutcome outcome) {
                               // A release scheduled at this count is made before the report is acknowledged.
                               if (outcome == SubmitOutcome::kCommitted) RunDueReleases(storage, *entry);
                               respond(SubmitOutcomeToResult(outcome));
                             });
}

}  // namespace deniable::server
