#include "server/http/api_types.h"

namespace deniable::server {

std::string ApiRequest::Header(const std::string& lowercase_name) const {
  const auto it = headers.find(lowercase_name);
  return it == headers.end() ? std::string() : it->second;
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
