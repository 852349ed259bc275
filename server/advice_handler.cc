#include "server/advice_handler.h"

#include "core/frequency/advisor.h"
#include "core/common/number_text.h"

namespace deniable::server {
namespace {

ApiError BadParameter(const std::string& name, const std::string& problem) {
  return ApiError{400, "invalid_request", name + ": " + problem};
}

std::variant<std::string, ApiError> RequiredParameter(const ApiRequest& request, const std::string& name) {
  const auto it = request.query.find(name);
  if (it == request.query.end() || it->second.empty()) return BadParameter(name, "required query parameter is missing");
  return it->second;
}

std::variant<long long, ApiError> IntegerParameter(const ApiRequest& request, const std::string& name) {
  auto text = RequiredParameter(request, name);
  if (auto* error = std::get_if<ApiError>(&text)) return *error;
  const auto value = ParseInteger(std::get<std::string>(text));
  if (!value) return BadParameter(name, "must be an integer, but is \"" + std::get<std::string>(text) + "\"");
  return *value;
}

std::variant<double, ApiError> NumberParameter(const ApiRequest& request, const std::string& name) {
  auto text = RequiredParameter(request, name);
  if (auto* error = std::get_if<ApiError>(&text)) return *error;
  const auto value = ParseFiniteNumber(std::get<std::string>(text));
  if (!value) return BadParameter(name, "must be a finite number, but is \"" + std::get<std::string>(text) + "\"");
  return *value;
}

}  // namespace

ApiResult HandleAdvice(const ApiRequest& request) {
  const auto options = IntegerParameter(request, "options");
  if (auto* error = std::get_if<ApiError>(&options)) return *error;
  const auto epsilon = NumberParameter(request, "epsilon");
  if (auto* error = std::get_if<ApiError>(&epsilon)) return *error;
  const auto respondents = IntegerParameter(request, "respondents");
  if (auto* error = std::get_if<ApiError>(&respondents)) return *error;
  const long long k = std::get<long long>(options);
  if (k < 2 || k > 4096) return BadParameter("options", "must be between 2 and 4096, but is " + std::to_string(k));
  auto advice = Advise(static_cast<int>(k), std::get<double>(epsilon), std::get<long long>(respondents));
  if (!advice) return ApiError{400, "invalid_request", advice.error()};
  return JsonResponse(200, AdviceToJson(*advice));
}

}  // namespace deniable::server
