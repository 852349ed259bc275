// What the API handlers work with, and the errors several of them share.
#pragma once

#include <optional>
#include <string>

#include "server/surveys/admin_token.h"
#include "server/http/api_types.h"
#include "server/http/trusted_proxies.h"
#include "server/surveys/report_writer.h"
#include "server/storage/storage.h"
#include "server/surveys/survey_registry.h"

namespace deniable::server {

struct ApiContext {
  SurveyRegistry& registry;
  Storage& storage;
  ReportWriter& writer;
  const AdminToken& admin_token;
  TrustedProxies trusted_proxies{};  // whose X-Forwarded-For names the client (none by default)
};

// The estimation gate's per-client key of the request (ClientKey): of the
// last X-Forwarded-For hop when the peer is a trusted proxy, else of the peer.
std::string RequesterClient(const ApiContext& context, const ApiRequest& request);

// 401 unless the request carries "Authorization: Bearer <admin token>".
std::optional<ApiError> RequireAdmin(const ApiContext& context, const ApiRequest& request);

// Whoever may read the survey's results: anyone when they are public, else the admin.
std::optional<ApiError> CheckResultsAccess(const ApiContext& context, const SurveyEntry& entry,
                                           const ApiRequest& request);

ApiError SurveyNotFound(const std::string& id);
ApiError InvalidJson(const std::string& message);

}  // namespace deniable::server
