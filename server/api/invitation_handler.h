// Invitation codes over HTTP: creating them, checking one, exchanging one for
// a blind token (server/surveys/blind_tokens.h), and reading the token a
// report carries (the X-Invitation-Token header).
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

// GET /api/surveys/{id}/invitation-key: the invitation survey's public key
// (200 {"suite","mode","public_key"}), which the page checks every
// evaluation against; 400 for an open survey.
ApiResult HandleInvitationKey(ApiContext& context, const ApiRequest& request);

// POST /api/surveys/{id}/tokens {"code", "blinded_element"}: spends the code
// for this blinded element, durably, then answers 200 {"evaluated_element",
// "proof": {"c", "s"}}; the same code and element again answer again (a
// retry after a lost answer), anything else spends nothing.
ApiResult HandleIssueToken(ApiContext& context, const ApiRequest& request);

// The hash of the request's invitation code when the survey needs one (none
// for an open survey), or the 403 for a missing or malformed code.
std::variant<std::optional<std::string>, ApiError> RequestInvitationHash(const SurveyEntry& entry, const ApiRequest& request);

// The hash of the report's token to spend when the survey needs one (none for
// an open survey), or the error: 400 when the report still carries its code,
// 403 invitation_required without a token, 403 token_invalid for one the
// survey's key did not issue.
std::variant<std::optional<std::string>, ApiError> RequestTokenHash(const SurveyEntry& entry, const ApiRequest& request);

// 403 invitation_invalid: a code that is unknown, malformed or already used.
ApiError InvitationRejected();

}  // namespace deniable::server
