#include "server/http/wire_errors.h"

#include <utility>

namespace deniable::server {
namespace {

constexpr auto kInvalid = ErrorCode::kInvalidArgument;
constexpr auto kMissing = ErrorCode::kNotFound;
constexpr auto kConflict = ErrorCode::kConflict;
constexpr auto kCancelled = ErrorCode::kCancelled;
constexpr auto kBusy = ErrorCode::kBusy;
constexpr auto kUnavailable = ErrorCode::kUnavailable;
constexpr auto kInternal = ErrorCode::kInternal;
constexpr std::optional<ErrorCode> kNoKind;

std::vector<WireError> MakeTable() {
  return {
      {WireCode::kBadRequest, "bad_request", 400, kInvalid},
      {WireCode::kRequestTimeout, "request_timeout", 408, kNoKind},
      {WireCode::kPayloadTooLarge, "payload_too_large", 413, kNoKind},
      {WireCode::kUriTooLong, "uri_too_long", 414, kNoKind},
      {WireCode::kUnsupportedMediaType, "unsupported_media_type", 415, kNoKind},
      {WireCode::kExpectationFailed, "expectation_failed", 417, kNoKind},
      {WireCode::kHeadersTooLarge, "headers_too_large", 431, kNoKind},
      {WireCode::kNotImplemented, "not_implemented", 501, kNoKind},
      {WireCode::kNotFound, "not_found", 404, kMissing},
      {WireCode::kHttpError, "http_error", 0, kNoKind},
      {WireCode::kServerBusy, "server_busy", 503, kBusy},
      {WireCode::kInternal, "internal", 500, kInternal},

      {WireCode::kInvalidJson, "invalid_json", 400, kInvalid},
      {WireCode::kInvalidSurvey, "invalid_survey", 400, kInvalid},
      {WireCode::kInvalidReport, "invalid_report", 400, kInvalid},
      {WireCode::kInvalidRequest, "invalid_request", 400, kInvalid},
      {WireCode::kInvalidAnalysis, "invalid_analysis", 400, kInvalid},
      {WireCode::kInvalidQuery, "invalid_query", 400, kInvalid},
      // A report that still carries its invitation code (codes are exchanged for tokens when the page opens).
      {WireCode::kInvitationCodeNotAccepted, "invitation_code_not_accepted", 400, kInvalid},

      {WireCode::kAdminTokenMissing, "admin_token_missing", 401, kNoKind},
      {WireCode::kAdminTokenInvalid, "admin_token_invalid", 401, kNoKind},
      {WireCode::kInvitationRequired, "invitation_required", 403, kNoKind},
      {WireCode::kInvitationInvalid, "invitation_invalid", 403, kNoKind},
      {WireCode::kTokenInvalid, "token_invalid", 403, kNoKind},
      {WireCode::kResultsAdminOnly, "results_admin_only", 403, kNoKind},
      {WireCode::kExactCountsNotAllowed, "exact_counts_not_allowed", 403, kNoKind},

      {WireCode::kSurveyNotFound, "survey_not_found", 404, kMissing},
      {WireCode::kQuestionNotFound, "question_not_found", 404, kMissing},
      {WireCode::kScheduledReleaseNotFound, "scheduled_release_not_found", 404, kMissing},

      {WireCode::kSurveyExists, "survey_exists", 409, kConflict},
      {WireCode::kReportNotAdmitted, "report_not_admitted", 409, kConflict},
      {WireCode::kModelComplete, "model_complete", 409, kConflict},
      {WireCode::kSurveyClosed, "survey_closed", 409, kConflict},
      {WireCode::kSurveyDeleted, "survey_deleted", 409, kConflict},
      {WireCode::kBudgetExceeded, "budget_exceeded", 409, kConflict},
      {WireCode::kNoAnswers, "no_answers", 409, kConflict},
      {WireCode::kNotConfidential, "not_confidential", 409, kConflict},
      {WireCode::kNotCancelled, "not_cancelled", 409, kConflict},
      // Another server node released or cancelled from the same ledger
      // meanwhile: nothing was stored or spent, and a retry decides on the
      // stored ledger.
      {WireCode::kLedgerChanged, "ledger_changed", 409, kConflict},
      {WireCode::kTokenUsed, "token_used", 409, kConflict},
      // A correction of a running survey's wording that changes more than
      // wording (core/survey/text_correction.h); one decided on wording
      // another correction replaced meanwhile (nothing stored: reload).
      {WireCode::kNeedsNewVersion, "needs_new_version", 409, kConflict},
      {WireCode::kCorrectedMeanwhile, "corrected_meanwhile", 409, kConflict},

      {WireCode::kExportTooLarge, "export_too_large", 413, kNoKind},
      // The client's own other computation is the state this one clashes
      // with (429: it may retry once that one is done).
      {WireCode::kEstimationLimit, "estimation_limit", 429, kConflict},
      {WireCode::kEstimationBusy, "estimation_busy", 503, kBusy},
      {WireCode::kExportBusy, "export_busy", 503, kBusy},
      {WireCode::kEstimationCancelled, "estimation_cancelled", 503, kCancelled},
      {WireCode::kExportCancelled, "export_cancelled", 503, kCancelled},
      {WireCode::kShuttingDown, "shutting_down", 503, kUnavailable},

      {WireCode::kStorageFailed, "storage_failed", 500, kInternal},
      {WireCode::kStorageUnavailable, "storage_unavailable", 503, kUnavailable},
      {WireCode::kExportFailed, "export_failed", 503, kUnavailable},
  };
}

}  // namespace

const std::vector<WireError>& WireErrors() {
  static const std::vector<WireError> table = MakeTable();
  return table;
}

const WireError& WireErrorOf(WireCode code) { return WireErrors().at(static_cast<std::size_t>(code)); }

ApiError ApiErrorFor(WireCode code, std::string message) {
  const WireError& row = WireErrorOf(code);
  return ApiError{row.status, std::string(row.name), std::move(message)};
}

std::optional<WireCode> ServerWideCode(ErrorCode kind) {
  switch (kind) {
    case ErrorCode::kInvalidArgument:
    case ErrorCode::kNotFound:
    case ErrorCode::kConflict:
      return std::nullopt;
    case ErrorCode::kCancelled:
      return WireCode::kEstimationCancelled;
    case ErrorCode::kBusy:
      return WireCode::kServerBusy;
    case ErrorCode::kUnavailable:
      return WireCode::kStorageUnavailable;
    case ErrorCode::kInternal:
      return WireCode::kInternal;
  }
  return WireCode::kInternal;
}

ApiError FromError(const Error& error, WireCode code) {
  const auto server_wide = ServerWideCode(error.code);
  const bool named_here = !server_wide || WireErrorOf(code).kind == error.code;
  return ApiErrorFor(named_here ? code : *server_wide, error.message);
}

}  // namespace deniable::server
