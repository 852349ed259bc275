#include "core/survey/report.h"

#include <cmath>

#include <cstdint>

#include "core/common/json_fields.h"
#include "core/common/validation.h"

namespace deniable {
namespace {

Status CheckSurveyReference(const Survey& survey, const nlohmann::json& document) {
  DENIABLE_ASSIGN_OR_RETURN(auto id, ReadString(document, "survey", 64, true, ""));
  if (id != survey.id) return MakeError("survey: report is for survey \"" + id + "\", not \"" + survey.id + "\"");
  DENIABLE_ASSIGN_OR_RETURN(auto version, ReadInteger(document, "version", 1, 1000000, ""));
  if (version != survey.version) {
    return MakeError("version: report is for version " + std::to_string(version) + " of the survey, but the "
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

// Whether the respondent skipped the question: no answer, or null for an
// optional one (a required question's null goes to its kind, which names it).
bool Skipped(const nlohmann::json& answers, const Question& question) {
  return !answers.contains(question.id) || (!question.required && answers.at(question.id).is_null());
}

// A question whose condition (conditions.h) does not hold is not asked: it is
// left out like a skipped one, and an answer to it is refused. `whose`: "the
// answers" (the device's) or "the report's open answers" (the server's).
Error RefuseHiddenAnswer(const Question& question, const std::string& where, const std::string& whose) {
  return MakeError(where + ": the question is asked only when " + DescribeCondition(*question.show_if) + ", and " +
                   whose + " say otherwise, so it must not be answered");
}

}  // namespace

Result<nlohmann::json> PerturbAnswers(const Survey& survey, const nlohmann::json& answers, RandomSource& random) {
  DENIABLE_TRY(RequireObject(answers, "answers"));
  DENIABLE_TRY(RejectUnknownQuestions(survey, answers, "answers"));
  nlohmann::json responses = nlohmann::json::object();
  for (const auto& question : survey.questions) {
    const std::string where = "answers." + question.id;
    if (!QuestionShown(question, answers)) {
      const bool given = answers.contains(question.id) && !answers.at(question.id).is_null();
      if (given) return RefuseHiddenAnswer(question, where, "the answers");
      continue;  // hidden: left out, as a skipped question
    }
    if (Skipped(answers, question)) {
      if (question.required) return MakeError(where + ": question is not answered");
      continue;  // the report says it was skipped by leaving it out
    }
    auto response = question.client->Perturb(answers.at(question.id), random);
    if (!response) return InContext(where, response.error());
    responses[question.id] = std::move(response).value();
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
    if (!QuestionShown(question, responses)) {
      // Open answers are sent as given, so the report's own say whether it was asked.
      if (responses.contains(question.id)) return RefuseHiddenAnswer(question, where, "the report's open answers");
      report.responses.emplace_back();  // not asked: counted as skipped
      continue;
    }
    if (!responses.contains(question.id)) {
      if (question.required) return MakeError(where + ": missing response");
      report.responses.emplace_back();  // skipped
      continue;
    }
    auto response = question.kind->Decode(responses.at(question.id));
    if (!response) return InContext(where, response.error());
    report.responses.push_back(std::move(response).value());
  }
  return report;
}

}  // namespace deniable
