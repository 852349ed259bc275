// Every error the server answers, listed once: its wire code (the "code" of
// {"error": {"message", "code"}}, stable, for programs), its HTTP status, and
// the kind of core Error it stands for where one does. The HTTP layer and the
// handlers build their errors only from here (ApiErrorFor, FromError), so a
// status cannot drift from its code, and README's error table lists exactly
// these codes (tests/cpp/server/http/wire_errors_test.cpp checks both).
//
// It lives in http/ because the HTTP layer answers some of them itself
// (framing, the adapter) and http/ may include nothing above it; the handlers
// in api/ use it too.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/common/result.h"
#include "server/http/api_types.h"

namespace deniable::server {

enum class WireCode {
  // The request as HTTP (the connection gate, request framing, the adapter).
  kBadRequest,
  kRequestTimeout,
  kPayloadTooLarge,
  kUriTooLong,
  kUnsupportedMediaType,
  kExpectationFailed,
  kHeadersTooLarge,
  kNotImplemented,
  kNotFound,
  kHttpError,
  kServerBusy,
  kInternal,
  // The request's documents and parameters.
  kInvalidJson,
  kInvalidSurvey,
  kInvalidReport,
  kInvalidRequest,
  kInvalidAnalysis,
  kInvalidQuery,
  kInvitationCodeNotAccepted,
  // Who may ask.
  kAdminTokenMissing,
  kAdminTokenInvalid,
  kInvitationRequired,
  kInvitationInvalid,
  kTokenInvalid,
  kResultsAdminOnly,
  kExactCountsNotAllowed,
  // What the path names.
  kSurveyNotFound,
  kQuestionNotFound,
  kScheduledReleaseNotFound,
  // The survey's current state.
  kSurveyExists,
  kReportNotAdmitted,
  kModelComplete,
  kSurveyClosed,
  kSurveyDeleted,
  kBudgetExceeded,
  kNoAnswers,
  kNotConfidential,
  kNotCancelled,
  kLedgerChanged,
  kTokenUsed,
  kNeedsNewVersion,
  kCorrectedMeanwhile,
  // Limits on the work a request may cause.
  kExportTooLarge,
  kEstimationLimit,
  kEstimationBusy,
  kExportBusy,
  kEstimationCancelled,
  kExportCancelled,
  kShuttingDown,
  // Storage.
  kStorageFailed,
  kStorageUnavailable,
  kExportFailed,
};

struct WireError {
  WireCode code;
  std::string_view name;  // the wire code, e.g. "invalid_report"
  // The HTTP status; 0 for http_error, which keeps the status the HTTP
  // library chose (an error it answers itself that has no code of its own).
  int status;
  // The kind of core Error it stands for; none for refusals no core error
  // makes (who may ask, HTTP framing).
  std::optional<ErrorCode> kind;
};

// The table, in WireCode order.
const std::vector<WireError>& WireErrors();
const WireError& WireErrorOf(WireCode code);

// The error `code` with its status and this message.
ApiError ApiErrorFor(WireCode code, std::string message);

// A core Error as the response to a request. An error about the request
// (invalid argument, not found, conflict) takes `code`, the caller's name for
// it here (kInvalidQuery, kSurveyNotFound, ...). An error about the server's
// state (cancelled, busy, unavailable, internal) takes `code` when that is a
// code of its kind (kExportCancelled), else its kind's server-wide code
// (ServerWideCode).
ApiError FromError(const Error& error, WireCode code);

// The code an error about the server's state takes when the caller names none
// of its kind: estimation_cancelled, server_busy, storage_unavailable,
// internal. nullopt for the kinds about the request, which only the caller
// can name.
std::optional<WireCode> ServerWideCode(ErrorCode kind);

}  // namespace deniable::server
