#include "server/api_types.h"

namespace deniable::server {

std::string ApiRequest::Header(const std::string& lowercase_name) const {
  const auto it = headers.find(lowercase_name);
  return it == headers.end() ? std::string() : it->second;
}

std::string SafeDump(const nlohmann::json& value, int indent) {
  return value.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace);
}

ApiResponse JsonResponse(int status, const nlohmann::json& body) {
  return ApiResponse{status, "application/json", SafeDump(body), {}};
}

ApiResponse ErrorResponse(const ApiError& error) {
  ApiResponse response = JsonResponse(error.status, {{"error", {{"message", error.message}, {"code", error.code}}}});
  if (error.status == 401) response.headers.emplace_back("WWW-Authenticate", "Bearer realm=\"deniable\"");
  return response;
}

ApiResponse ToResponse(ApiResult result) {
  if (auto* error = std::get_if<ApiError>(&result)) return ErrorResponse(*error);
  return std::get<ApiResponse>(std::move(result));
}

}  // namespace deniable::server
