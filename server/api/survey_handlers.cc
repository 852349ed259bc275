#include "server/api/survey_handlers.h"

#include <iostream>

#include "server/api/survey_admin_handlers.h"
#include "server/base/version.h"
#include "server/http/json_limits.h"
#include "server/http/wire_errors.h"
#include "server/surveys/survey_catalog.h"

namespace deniable::server {
namespace {

nlohmann::json SurveySummary(const SurveyEntry& entry) {
  const auto total = TotalEpsilon(entry.survey());
  return {{"id", entry.id()},
          {"version", entry.survey().version},
          {"title", entry.survey().title},
          {"results", entry.definition().at("results")},
          {"access", entry.definition().at("access")},
          {"respondents", entry.respondents()},
          {"status", StatusJson(entry).at("status")},
          {"closes_at", StatusJson(entry).at("closes_at")},
          {"accepting", StatusJson(entry).at("accepting")},
          {"total_epsilon", total ? nlohmann::json(*total) : nlohmann::json(nullptr)}};
}

}  // namespace

ApiResult HandleHealth(const ApiRequest&) { return JsonResponse(200, {{"status", "ok"}, {"version", kVersion}}); }

ApiResult HandleListSurveys(ApiContext& context, const ApiRequest& request) {
  if (auto denied = RequireAdmin(context, request)) return *denied;
  auto surveys = nlohmann::json::array();
  for (const auto& entry : context.registry.All()) surveys.push_back(SurveySummary(*entry));
  return JsonResponse(200, {{"surveys", surveys}});
}

ApiResult HandleCreateSurvey(ApiContext& context, const ApiRequest& request) {
  if (auto denied = RequireAdmin(context, request)) return *denied;
  auto document = ParseJsonBody(request.Header("content-type"), request.body);
  if (!document) return InvalidJson(document.error());
  auto survey = ParseSurvey(*document);
  if (!survey) return FromError(survey.failure(), WireCode::kInvalidSurvey);
  if (auto analyses = CheckDeclaredAnalyses(*survey); !analyses) {
    return FromError(analyses.failure(), WireCode::kInvalidSurvey);
  }
  const std::string id = survey->id;
  auto created = CreateSurvey(context.storage, context.registry, std::move(survey).value());
  if (!created) {
    std::cerr << "error: storing a survey failed: " << created.error() << std::endl;
    return ApiErrorFor(WireCode::kStorageFailed, "the survey could not be stored; see the server log");
  }
  if (created->outcome == CreateOutcome::kDeleted) {
    return ApiErrorFor(WireCode::kSurveyDeleted, "a survey with id \"" + id +
                                                     "\" was deleted; ids are never reused (old links and codes must "
                                                     "not reach a new survey): choose another id");
  }
  if (created->outcome == CreateOutcome::kExists) {
    return ApiErrorFor(WireCode::kSurveyExists,
                       "a survey with id \"" + id + "\" already exists (choose another id, or a new version under a new id)");
  }
  return JsonResponse(201, created->entry->definition());
}

ApiResult HandleGetSurvey(ApiContext& context, const ApiRequest& request) {
  const auto entry = context.registry.Find(request.path_params.at(0));
  if (!entry) return SurveyNotFound(request.path_params.at(0));
  return JsonResponse(200, entry->definition());
}

// What clients fetch before answering: public by design (clients of kinds
// with rounds need it), and it holds no respondent's report.
ApiResult HandleGetPublicState(ApiContext& context, const ApiRequest& request) {
  const auto entry = context.registry.Find(request.path_params.at(0));
  if (!entry) return SurveyNotFound(request.path_params.at(0));
  return JsonResponse(200, entry->PublicStates());
}

}  // namespace deniable::server
