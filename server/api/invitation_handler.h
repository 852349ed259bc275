// Invitation codes over HTTP: creating them, checking one, and reading the
// one a request carries (the X-Invitation-Code header).
#pragma once

#include <optional>
#include <string>
#include <variant>

#include "server/api/api_context.h"

namespace deniable::server {

// POST /api/surveys/{id}/invitations (admin): body {"count": N}, 1..10000;
// answers 201 {"codes": [...]}. The codes are shown once: only their hashes
// are stored.
ApiResult HandleCreateInvitations(ApiContext& context, const ApiRequest& request);

// GET /api/surveys/{id}/invitations (admin): how many codes the survey has,
// 200 {"total", "used", "unused"}; the codes themselves are never returned
// (only their hashes are stored).
ApiResult HandleCountInvitations(ApiContext& context, const ApiRequest& request);

// POST /api/surveys/{id}/invitations/check with X-Invitation-Code: 200 when
// the code is valid and unused (spending nothing), else 403 naming why.
ApiResult HandleCheckInvitation(ApiContext& context, const ApiRequest& request);

// The hash of the request's invitation code when the survey needs one (none
// for an open survey), or the 403 for a missing or malformed code.
std::variant<std::optional<std::string>, ApiError> RequestInvitationHash(const SurveyEntry& entry, const ApiRequest& request);

// 403 invitation_invalid: a code that is unknown, malformed or already used.
ApiError InvitationRejected();

}  // namespace deniable::server
