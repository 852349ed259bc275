#include "server/api/invitation_handler.h"

#include <iostream>

#include "core/common/json_fields.h"
#include "core/common/os_random.h"
#include "server/base/utc_time.h"
#include "server/http/json_limits.h"
#include "server/http/wire_errors.h"
#include "server/surveys/blind_tokens.h"
#include "server/surveys/invitation_codes.h"

namespace deniable::server {
namespace {

// The requested number of codes, or a 400 naming the field.
std::variant<int, ApiError> ReadCount(const ApiRequest& request) {
  auto document = ParseJsonBody(request.Header("content-type"), request.body);
  if (!document) return InvalidJson(document.error());
  if (auto status = RequireObject(*document, ""); !status)
    return FromError(status.failure(), WireCode::kInvalidRequest);
  if (auto status = RejectUnknownFields(*document, {"count"}, ""); !status) {
    return FromError(status.failure(), WireCode::kInvalidRequest);
  }
  auto count = ReadInteger(*document, "count", 1, kMaxInvitationsPerRequest, "");
  if (!count) return FromError(count.failure(), WireCode::kInvalidRequest);
  return static_cast<int>(*count);
}

}  // namespace

ApiResult HandleCreateInvitations(ApiContext& context, const ApiRequest& request) {
  if (auto denied = RequireAdmin(context, request)) return *denied;
  const auto entry = context.registry.Find(request.path_params.at(0));
  if (!entry) return SurveyNotFound(request.path_params.at(0));
  if (entry->survey().access != Access::kInvitation) {
    return ApiErrorFor(WireCode::kInvalidRequest, "access: survey \"" + entry->id() +
                                                      "\" is open to everyone; invitations need access \"invitation\"");
  }
  auto count = ReadCount(request);
  if (auto* error = std::get_if<ApiError>(&count)) return *error;
  OsRandom random;
  const auto codes = GenerateInvitationCodes(random, std::get<int>(count));
  std::vector<std::string> hashes;
  hashes.reserve(codes.size());
  for (const auto& code : codes) hashes.push_back(HashInvitationCode(code));
  if (auto stored = context.storage.AddInvitations(entry->id(), hashes); !stored) {
    std::cerr << "error: storing invitations failed: " << stored.error() << std::endl;
    return ApiErrorFor(WireCode::kStorageFailed, "the invitation codes could not be stored; none were created");
  }
  return JsonResponse(201, {{"codes", codes}});
}

ApiResult HandleCountInvitations(ApiContext& context, const ApiRequest& request) {
  if (auto denied = RequireAdmin(context, request)) return *denied;
  const auto entry = context.registry.Find(request.path_params.at(0));
  if (!entry) return SurveyNotFound(request.path_params.at(0));
  auto counts = context.storage.CountInvitations(entry->id());
  if (!counts) {
    std::cerr << "error: counting invitations failed: " << counts.error() << std::endl;
    return ApiErrorFor(WireCode::kStorageFailed, "the invitation codes could not be counted; try again");
  }
  return JsonResponse(200, {{"total", counts->total}, {"used", counts->used}, {"unused", counts->total - counts->used}});
}

namespace {
constexpr const char* kInvitationHeader = "x-invitation-code";
constexpr const char* kTokenHeader = "x-invitation-token";

ApiError InvalidInvitationRequest(const std::string& message) { return ApiErrorFor(WireCode::kInvalidRequest, message); }

ApiError NotByInvitation(const SurveyEntry& entry) {
  return InvalidInvitationRequest("survey \"" + entry.id() + "\" is open to everyone: it has no invitations and no key");
}

struct TokenRequest {
  std::string code;
  oprf::Element blinded_element{};
};

// {"code": "...", "blinded_element": "<64 hex>"}, or the 400 naming the field.
std::variant<TokenRequest, ApiError> ReadTokenRequest(const ApiRequest& request) {
  auto document = ParseJsonBody(request.Header("content-type"), request.body);
  if (!document) return InvalidJson(document.error());
  if (auto status = RequireObject(*document, ""); !status) return InvalidInvitationRequest(status.error());
  if (auto status = RejectUnknownFields(*document, {"code", "blinded_element"}, ""); !status) {
    return InvalidInvitationRequest(status.error());
  }
  auto code = ReadString(*document, "code", 256, true, "");
  if (!code) return InvalidInvitationRequest(code.error());
  auto hex = ReadString(*document, "blinded_element", 256, true, "");
  if (!hex) return InvalidInvitationRequest(hex.error());
  auto element = oprf::ElementFromHex(*hex, "blinded_element");
  if (!element) return InvalidInvitationRequest(element.error());
  return TokenRequest{*code, *element};
}

}  // namespace

ApiError InvitationRejected() {
  return ApiErrorFor(WireCode::kInvitationInvalid,
                     "this invitation code is unknown or has already been used for this survey");
}

std::variant<std::optional<std::string>, ApiError> RequestInvitationHash(const SurveyEntry& entry, const ApiRequest& request) {
  if (entry.survey().access != Access::kInvitation) return std::optional<std::string>();
  const std::string received = request.Header(kInvitationHeader);
  if (received.empty()) {
    return ApiErrorFor(
        WireCode::kInvitationRequired,
        "survey \"" + entry.id() + "\" is by invitation: send your code in the X-Invitation-Code header");
  }
  const auto code = NormalizeInvitationCode(received);
  if (!code) return InvitationRejected();
  return std::optional<std::string>(HashInvitationCode(*code));
}

ApiResult HandleInvitationKey(ApiContext& context, const ApiRequest& request) {
  const auto entry = context.registry.Find(request.path_params.at(0));
  if (!entry) return SurveyNotFound(request.path_params.at(0));
  if (!entry->token_key()) return NotByInvitation(*entry);
  ApiResponse response = JsonResponse(
      200, {{"suite", "ristretto255-SHA512"}, {"mode", "voprf"}, {"public_key", oprf::ToHex(entry->token_key()->public_key)}});
  // The key never changes while the survey exists.
  response.headers.emplace_back("Cache-Control", "public, max-age=3600");
  return response;
}

// The code is spent, and committed, before the evaluation is computed and
// answered: a crash or a lost answer after the spend loses no invitation,
// since the same element is evaluated again (kRepeated). An element the group
// refuses was refused when read (ElementFromHex), spending nothing, and a
// wrong code costs no evaluation. Nothing is logged: the request names an
// invitee.
ApiResult HandleIssueToken(ApiContext& context, const ApiRequest& request) {
  const auto entry = context.registry.Find(request.path_params.at(0));
  if (!entry) return SurveyNotFound(request.path_params.at(0));
  if (!entry->token_key()) return NotByInvitation(*entry);
  if (auto closed = entry->ClosedReason(NowSeconds())) return ApiErrorFor(WireCode::kSurveyClosed, *closed);
  auto read = ReadTokenRequest(request);
  if (auto* error = std::get_if<ApiError>(&read)) return *error;
  const TokenRequest& wanted = std::get<TokenRequest>(read);
  const auto code = NormalizeInvitationCode(wanted.code);
  if (!code) return InvitationRejected();
  auto spent = context.storage.SpendInvitationForToken(entry->id(), HashInvitationCode(*code),
                                                       BlindedElementHash(wanted.blinded_element));
  if (!spent) {
    std::cerr << "error: exchanging an invitation code failed: " << spent.error() << std::endl;
    return FromError(spent.failure(), WireCode::kStorageFailed);
  }
  switch (*spent) {
    case IssueOutcome::kSpent:
    case IssueOutcome::kRepeated:
      break;
    case IssueOutcome::kRejected:
      return InvitationRejected();
    case IssueOutcome::kSurveyClosed:
      return ApiErrorFor(WireCode::kSurveyClosed, "survey \"" + entry->id() + "\" is closed: the code was not used");
    case IssueOutcome::kSurveyDeleted:
      return SurveyNotFound(entry->id());
  }
  OsRandom random;
  auto evaluation = oprf::BlindEvaluate(*entry->token_key(), wanted.blinded_element, random);
  if (!evaluation) {  // not for an element ElementFromHex accepted: the same request again gets its answer
    std::cerr << "error: evaluating a blinded element failed: " << evaluation.error() << std::endl;
    return ApiErrorFor(WireCode::kInternal, "the token could not be computed; send the same request again");
  }
  return JsonResponse(200, {{"evaluated_element", oprf::ToHex(evaluation->evaluated_element)},
                            {"proof", {{"c", oprf::ToHex(evaluation->proof.c)}, {"s", oprf::ToHex(evaluation->proof.s)}}}});
}

std::variant<std::optional<std::string>, ApiError> RequestTokenHash(const SurveyEntry& entry, const ApiRequest& request) {
  if (!entry.token_key()) return std::optional<std::string>();
  if (!request.Header(kInvitationHeader).empty()) {
    return ApiErrorFor(WireCode::kInvitationCodeNotAccepted,
                       "reports no longer carry the invitation code: the survey page now exchanges the code for an "
                       "anonymous token when it opens. Reload the survey page from your invitation link and send "
                       "your answers again");
  }
  const std::string received = request.Header(kTokenHeader);
  if (received.empty()) {
    return ApiErrorFor(WireCode::kInvitationRequired,
                       "survey \"" + entry.id() + "\" is by invitation: send the token the survey page received for "
                       "your code in the X-Invitation-Token header");
  }
  auto hash = RedeemableTokenHash(*entry.token_key(), received);
  if (!hash) return ApiErrorFor(WireCode::kTokenInvalid, hash.error());
  return std::optional<std::string>(*hash);
}

ApiResult HandleCheckInvitation(ApiContext& context, const ApiRequest& request) {
  const auto entry = context.registry.Find(request.path_params.at(0));
  if (!entry) return SurveyNotFound(request.path_params.at(0));
  auto hash = RequestInvitationHash(*entry, request);
  if (auto* error = std::get_if<ApiError>(&hash)) return *error;
  const auto& code_hash = std::get<std::optional<std::string>>(hash);
  if (!code_hash) return JsonResponse(200, {{"valid", true}, {"needed", false}});
  auto unused = context.storage.InvitationUnused(entry->id(), *code_hash);
  if (!unused) {
    std::cerr << "error: checking an invitation code failed: " << unused.error() << std::endl;
    return ApiErrorFor(WireCode::kStorageFailed, "the invitation code could not be checked; try again");
  }
  if (!*unused) return InvitationRejected();
  return JsonResponse(200, {{"valid", true}, {"needed", true}});
}

}  // namespace deniable::server
