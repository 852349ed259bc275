#include "server/api/invitation_handler.h"

#include <iostream>

#include "core/common/json_fields.h"
#include "core/common/os_random.h"
#include "server/http/json_limits.h"
#include "server/http/wire_errors.h"
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
