#include "server/api/advice_handler.h"

#include "core/common/number_text.h"
#include "core/frequency/advisor.h"
#include "core/survey/survey.h"
#include "server/http/json_limits.h"
#include "server/http/wire_errors.h"

namespace deniable::server {
namespace {

ApiError BadParameter(const std::string& name, const std::string& problem) {
  return ApiErrorFor(WireCode::kInvalidRequest, name + ": " + problem);
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
  if (!advice) return FromError(advice.failure(), WireCode::kInvalidRequest);
  return JsonResponse(200, AdviceToJson(*advice));
}

ApiResult HandleDesignAdvice(ApiContext& context, const ApiRequest& request) {
  if (auto denied = RequireAdmin(context, request)) return *denied;
  auto body = ParseJsonBody(request.Header("content-type"), request.body);
  if (!body) return InvalidJson(body.error());
  if (!body->is_object()) return ApiErrorFor(WireCode::kInvalidRequest, "the body must be a JSON object");
  const auto survey_field = body->find("survey");
  if (survey_field == body->end()) return ApiErrorFor(WireCode::kInvalidRequest, "survey: required field is missing");
  const auto question_field = body->find("question");
  if (question_field == body->end() || !question_field->is_string()) {
    return ApiErrorFor(WireCode::kInvalidRequest, "question: must be the id of one of the survey's questions");
  }
  const auto respondents = body->find("respondents");
  if (respondents == body->end() || !respondents->is_number_integer() || respondents->get<long long>() < 1 ||
      respondents->get<long long>() > 1000000000000LL) {
    return ApiErrorFor(WireCode::kInvalidRequest, "respondents: must be a whole number between 1 and 10^12");
  }
  auto survey = ParseSurvey(*survey_field);
  if (!survey) return ApiErrorFor(WireCode::kInvalidSurvey, "survey." + survey.error());
  const std::string id = question_field->get<std::string>();
  for (const Question& question : survey->questions) {
    if (question.id != id) continue;
    const auto advice = question.kind->DesignAdvice(respondents->get<long long>());
    return JsonResponse(200, {{"question", id}, {"advice", advice ? *advice : nlohmann::json(nullptr)}});
  }
  return ApiErrorFor(WireCode::kInvalidRequest, "question: the survey has no question \"" + id + "\"");
}

}  // namespace deniable::server
