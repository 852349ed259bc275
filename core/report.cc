#include "core/report.h"

#include <cmath>

#include <cstdint>

#include "core/json_fields.h"
#include "core/validation.h"

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

// Range-checked on the JSON integer itself: narrowing it to int first would
// turn 4294967297 into answer 1.
Result<int> ReadAnswerIndex(const nlohmann::json& answer, int options, const std::string& where) {
  if (!answer.is_number_integer()) return MakeError(where + ": must be an option index, but is " + answer.dump());
  const bool in_range = answer.is_number_unsigned()
                            ? answer.get<std::uint64_t>() < static_cast<std::uint64_t>(options)
                            : answer.get<std::int64_t>() >= 0 && answer.get<std::int64_t>() < options;
  if (!in_range) {
    return MakeError(where + ": answer must be between 0 and " + std::to_string(options - 1) + ", but is " +
                     answer.dump());
  }
  return static_cast<int>(answer.get<std::int64_t>());
}

// A numeric report: exactly values_per_report finite numbers, each one a value
// the mechanism can produce.
Result<std::vector<double>> DecodeNumeric(const NumericMechanism& mechanism, const nlohmann::json& wire) {
  const int count = mechanism.values_per_report();
  if (!wire.is_array() || wire.size() != static_cast<std::size_t>(count)) {
    return MakeError("a " + mechanism.name() + " report must be an array of " + std::to_string(count) +
                     (count == 1 ? " number" : " numbers"));
  }
  const NumericRange possible = mechanism.possible_values();
  std::vector<double> values;
  for (std::size_t i = 0; i < wire.size(); ++i) {
    const auto& value = wire[i];
    if (!value.is_number() || !std::isfinite(value.get<double>()) || value.get<double>() < possible.low ||
        value.get<double>() > possible.high) {
      return MakeError("value " + std::to_string(i) + " must be a number in [" + FormatNumber(possible.low) + ", " +
                       FormatNumber(possible.high) + "], but is " + value.dump());
    }
    values.push_back(value.get<double>());
  }
  return values;
}

Result<nlohmann::json> PerturbOne(const Question& question, const nlohmann::json& answer, RandomSource& random,
                                  const std::string& where) {
  if (question.is_numeric()) {
    if (!answer.is_number()) return MakeError(where + ": must be a number, but is " + answer.dump());
    auto values = question.numeric_mechanism->Perturb(answer.get<double>(), random);
    if (!values) return InContext(where, values.error());
    return nlohmann::json(*values);
  }
  auto index = ReadAnswerIndex(answer, question.mechanism->options(), where);
  if (!index) return MakeError(index.error());
  auto support = question.mechanism->Perturb(*index, random);
  if (!support) return InContext(where, support.error());
  return question.mechanism->Encode(*support);
}

}  // namespace

Result<nlohmann::json> PerturbAnswers(const Survey& survey, const nlohmann::json& answers, RandomSource& random) {
  DENIABLE_TRY(RequireObject(answers, "answers"));
  DENIABLE_TRY(RejectUnknownQuestions(survey, answers, "answers"));
  nlohmann::json responses = nlohmann::json::object();
  for (const auto& question : survey.questions) {
    const std::string where = "answers." + question.id;
    if (!answers.contains(question.id)) return MakeError(where + ": question is not answered");
    auto response = PerturbOne(question, answers.at(question.id), random, where);
    if (!response) return MakeError(response.error());
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
    if (!responses.contains(question.id)) return MakeError(where + ": missing response");
    if (question.is_numeric()) {
      auto values = DecodeNumeric(*question.numeric_mechanism, responses.at(question.id));
      if (!values) return InContext(where, values.error());
      report.supports.emplace_back();
      report.values.push_back(std::move(values).value());
      continue;
    }
    auto support = question.mechanism->Decode(responses.at(question.id));
    if (!support) return InContext(where, support.error());
    report.supports.push_back(std::move(support).value());
    report.values.emplace_back();
  }
  return report;
}

}  // namespace deniable
