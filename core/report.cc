#include "core/report.h"

#include "core/json_fields.h"

namespace deniable {
namespace {

Status CheckSurveyReference(const Survey& survey, const nlohmann::json& document) {
  auto id = ReadString(document, "survey", 64, true, "");
  if (!id) return MakeError(id.error());
  if (*id != survey.id) return MakeError("survey: report is for survey \"" + *id + "\", not \"" + survey.id + "\"");
  auto version = ReadInteger(document, "version", 1, 1000000, "");
  if (!version) return MakeError(version.error());
  if (*version != survey.version) {
    return MakeError("version: report is for version " + std::to_string(*version) + " of the survey, but the "
                     "current version is " + std::to_string(survey.version) + " (reload the survey page)");
  }
  return OkStatus();
}

Status RejectUnknownQuestions(const Survey& survey, const nlohmann::json& object, const std::string& where) {
  for (const auto& item : object.items()) {
    if (!survey.QuestionIndex(item.key())) {
      return MakeError(JoinPath(where, item.key()) + ": no question with this id in survey \"" + survey.id + "\"");
    }
  }
  return OkStatus();
}

}  // namespace

Result<nlohmann::json> PerturbAnswers(const Survey& survey, const nlohmann::json& answers, RandomSource& random) {
  DENIABLE_TRY(RequireObject(answers, "answers"));
  DENIABLE_TRY(RejectUnknownQuestions(survey, answers, "answers"));
  nlohmann::json responses = nlohmann::json::object();
  for (const auto& question : survey.questions) {
    const std::string where = "answers." + question.id;
    if (!answers.contains(question.id)) return MakeError(where + ": question is not answered");
    const auto& answer = answers.at(question.id);
    if (!answer.is_number_integer()) return MakeError(where + ": must be an option index, but is " + answer.dump());
    auto support = question.mechanism->Perturb(answer.get<int>(), random);
    if (!support) return InContext(where, support.error());
    responses[question.id] = question.mechanism->Encode(*support);
  }
  return nlohmann::json{{"survey", survey.id}, {"version", survey.version}, {"responses", responses}};
}

Result<Report> ParseReport(const Survey& survey, const nlohmann::json& document) {
  DENIABLE_TRY(RequireObject(document, "report"));
  DENIABLE_TRY(RejectUnknownFields(document, {"survey", "version", "responses"}, ""));
  DENIABLE_TRY(CheckSurveyReference(survey, document));
  if (!document.contains("responses")) return MakeError("responses: required field is missing");
  const auto& responses = document.at("responses");
  DENIABLE_TRY(RequireObject(responses, "responses"));
  DENIABLE_TRY(RejectUnknownQuestions(survey, responses, "responses"));
  Report report;
  for (const auto& question : survey.questions) {
    const std::string where = "responses." + question.id;
    if (!responses.contains(question.id)) return MakeError(where + ": missing response");
    auto support = question.mechanism->Decode(responses.at(question.id));
    if (!support) return InContext(where, support.error());
    report.supports.push_back(std::move(support).value());
  }
  return report;
}

}  // namespace deniable
