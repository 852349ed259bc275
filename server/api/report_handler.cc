#include "server/api/report_handler.h"

#include <optional>

#include "core/survey/report.h"
#include "server/api/invitation_handler.h"
#include "server/api/release_handlers.h"
#include "server/base/utc_time.h"
#include "server/http/json_limits.h"
#include "server/http/wire_errors.h"

namespace deniable::server {
namespace {

ApiResult SubmitOutcomeToResult(SubmitOutcome outcome) {
  switch (outcome) {
    case SubmitOutcome::kCommitted:
      return ReportAccepted();
    case SubmitOutcome::kTokenUsed:
      return ApiErrorFor(WireCode::kTokenUsed, "this invitation has already been used to send a report");
    case SubmitOutcome::kShuttingDown:
      return ApiErrorFor(WireCode::kShuttingDown, "the server is shutting down; send the report again in a moment");
    case SubmitOutcome::kNotAdmitted:
      return ApiErrorFor(
          WireCode::kReportNotAdmitted,
          "the model's round filled up while this report was waiting to be stored: fetch the model's state "
          "again and prepare a new report");
    case SubmitOutcome::kSurveyDeleted:
      return ApiErrorFor(WireCode::kSurveyDeleted,
                         "the survey was deleted while this report was being stored: it was not stored");
    case SubmitOutcome::kSurveyClosed:
      return ApiErrorFor(
          WireCode::kSurveyClosed,
          "the survey closed while this report was being stored: it was not stored, and no longer accepts "
          "answers");
    case SubmitOutcome::kStorageUnavailable:
      return ApiErrorFor(
          WireCode::kStorageUnavailable,
          "the server cannot store reports now (its database cannot be reached: the SQLite file is missing, or "
          "the PostgreSQL server is down): the report was not stored, please send it again later");
    case SubmitOutcome::kStorageFailed:
      break;
  }
  return ApiErrorFor(WireCode::kStorageFailed,
                     "the report could not be stored; it was not counted, please send it again");
}

// The report to store, or the error that refuses it.
std::variant<PendingReport, ApiError> ValidReport(ApiContext& context, const ApiRequest& request) {
  auto entry = context.registry.Find(request.path_params.at(0));
  if (!entry) return SurveyNotFound(request.path_params.at(0));
  // Checked first: a closed invitation survey spends no token.
  if (auto closed = entry->ClosedReason(NowSeconds())) return ApiErrorFor(WireCode::kSurveyClosed, *closed);
  auto token_hash = RequestTokenHash(*entry, request);
  if (auto* error = std::get_if<ApiError>(&token_hash)) return *error;
  auto document = ParseJsonBody(request.Header("content-type"), request.body);
  if (!document) return InvalidJson(document.error());
  auto report = ParseReport(entry->survey(), *document);
  if (!report) return FromError(report.failure(), WireCode::kInvalidReport);
  // A model's report names its round: one for a closed or future round is refused.
  // A complete model (all its max_rounds done) is said apart: the client
  // sends the report again without the model's part, not a new model report.
  if (auto admitted = entry->Admits(*report); !admitted) {
    return ApiErrorFor(entry->RefusedAsComplete(*report) ? WireCode::kModelComplete : WireCode::kReportNotAdmitted,
                       admitted.error());
  }
  // The body as validated, and the token's hash: nothing that names the invitee.
  ReportRecord record{entry->id(), document->dump(), std::get<std::optional<std::string>>(std::move(token_hash))};
  return PendingReport{entry, std::move(report).value(), std::move(record)};
}

}  // namespace

// Rendered once: every committed report is answered with it (on the writer's thread).
ApiResponse ReportAccepted() {
  static const ApiResponse accepted = JsonResponse(201, {{"accepted", true}});
  return accepted;
}

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
