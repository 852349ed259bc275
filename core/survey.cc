#include "core/survey.h"

#include <set>

#include "core/json_fields.h"
#include "core/numeric_mechanism_factory.h"
#include "core/validation.h"

namespace deniable {
namespace {

constexpr std::size_t kMaxQuestions = 200;
constexpr std::size_t kMaxOptions = 4096;

Result<std::optional<double>> ReadEpsilon(const nlohmann::json& object, const std::string& where) {
  if (!object.contains("epsilon") || object.at("epsilon").is_null()) return std::optional<double>();
  const auto& value = object.at("epsilon");
  if (!value.is_number()) return MakeError(where + ".epsilon: must be a number, but is " + value.dump());
  if (auto status = ValidateEpsilon(value.get<double>()); !status) return InContext(where + ".epsilon", status.error());
  return std::optional<double>(value.get<double>());
}

Result<std::shared_ptr<const CategoricalMechanism>> ParseMechanism(const nlohmann::json& object, int options,
                                                                   const std::string& where) {
  DENIABLE_TRY(RequireObject(object, where));
  DENIABLE_TRY(RejectUnknownFields(object, {"name", "epsilon", "reported_options"}, where));
  auto name = ReadString(object, "name", 32, true, where);
  if (!name) return MakeError(name.error());
  auto kind = ParseCategoricalKind(*name);
  if (!kind) return InContext(where + ".name", kind.error());
  auto epsilon = ReadEpsilon(object, where);
  if (!epsilon) return MakeError(epsilon.error());
  CategoricalParams params{*kind, options, *epsilon, 1};
  if (object.contains("reported_options") && *kind != CategoricalKind::kNegativeSurvey) {
    return MakeError(where + ".reported_options: applies only to the negative survey");
  }
  if (object.contains("reported_options")) {
    auto s = ReadInteger(object, "reported_options", 1, static_cast<long long>(kMaxOptions), where);
    if (!s) return MakeError(s.error());
    params.reported_options = static_cast<int>(*s);
  }
  auto mechanism = CreateCategoricalMechanism(params);
  if (!mechanism) return InContext(where, mechanism.error());
  return std::shared_ptr<const CategoricalMechanism>(std::move(mechanism).value());
}

Result<std::vector<std::string>> ParseOptions(const nlohmann::json& question, const std::string& where) {
  const std::string path = where + ".options";
  if (!question.contains("options")) return MakeError(path + ": required field is missing");
  const auto& list = question.at("options");
  if (!list.is_array() || list.size() < 2 || list.size() > kMaxOptions) {
    return MakeError(path + ": must be an array of 2 to " + std::to_string(kMaxOptions) + " option labels");
  }
  std::vector<std::string> options;
  std::set<std::string> seen;
  for (std::size_t i = 0; i < list.size(); ++i) {
    const std::string item = path + "[" + std::to_string(i) + "]";
    if (!list[i].is_string() || list[i].get<std::string>().empty() || list[i].get<std::string>().size() > 500) {
      return MakeError(item + ": must be a non-empty string of at most 500 bytes");
    }
    if (!seen.insert(list[i].get<std::string>()).second) {
      return MakeError(item + ": duplicate option \"" + list[i].get<std::string>() + "\"");
    }
    options.push_back(list[i].get<std::string>());
  }
  return options;
}

Result<NumericRange> ParseRange(const nlohmann::json& question, const std::string& where) {
  const std::string path = where + ".range";
  if (!question.contains("range")) return MakeError(path + ": required field is missing");
  const auto& range = question.at("range");
  if (!range.is_array() || range.size() != 2 || !range[0].is_number() || !range[1].is_number()) {
    return MakeError(path + ": must be an array [low, high] of two numbers, but is " + range.dump());
  }
  const NumericRange parsed{range[0].get<double>(), range[1].get<double>()};
  if (auto status = ValidateNumericRange(parsed); !status) return InContext(path, status.error());
  return parsed;
}

Status ParseCategoricalPart(const nlohmann::json& object, const std::string& where, Question& question) {
  DENIABLE_TRY(RejectUnknownFields(object, {"id", "text", "type", "options", "mechanism"}, where));
  auto options = ParseOptions(object, where);
  if (!options) return MakeError(options.error());
  question.options = *options;
  if (!object.contains("mechanism")) return MakeError(where + ".mechanism: required field is missing");
  auto mechanism = ParseMechanism(object.at("mechanism"), static_cast<int>(question.options.size()),
                                  where + ".mechanism");
  if (!mechanism) return MakeError(mechanism.error());
  question.mechanism = *mechanism;
  return OkStatus();
}

Status ParseNumericPart(const nlohmann::json& object, const std::string& where, Question& question) {
  DENIABLE_TRY(RejectUnknownFields(object, {"id", "text", "type", "range", "unit", "mechanism"}, where));
  question.type = QuestionType::kNumeric;
  auto range = ParseRange(object, where);
  if (!range) return MakeError(range.error());
  question.range = *range;
  auto unit = ReadString(object, "unit", 32, false, where);
  if (!unit) return MakeError(unit.error());
  question.unit = *unit;
  if (!object.contains("mechanism")) return MakeError(where + ".mechanism: required field is missing");
  auto mechanism = ParseNumericMechanism(object.at("mechanism"), question.range, where + ".mechanism");
  if (!mechanism) return MakeError(mechanism.error());
  question.numeric_mechanism = *mechanism;
  return OkStatus();
}

Result<Question> ParseQuestion(const nlohmann::json& object, const std::string& where) {
  DENIABLE_TRY(RequireObject(object, where));
  Question question;
  auto id = ReadString(object, "id", 64, true, where);
  if (!id) return MakeError(id.error());
  DENIABLE_TRY(ValidateId(*id, where + ".id"));
  question.id = *id;
  auto text = ReadString(object, "text", 2000, true, where);
  if (!text) return MakeError(text.error());
  question.text = *text;
  auto type = ReadString(object, "type", 32, false, where);
  if (!type) return MakeError(type.error());
  if (type->empty() || *type == "categorical") {
    DENIABLE_TRY(ParseCategoricalPart(object, where, question));
  } else if (*type == "numeric") {
    DENIABLE_TRY(ParseNumericPart(object, where, question));
  } else {
    return MakeError(where + ".type: unknown question type \"" + *type + "\" (expected categorical or numeric)");
  }
  return question;
}

template <typename Enum>
Result<Enum> ReadChoice(const nlohmann::json& object, const char* field, const char* first, Enum first_value,
                        const char* second, Enum second_value) {
  auto text = ReadString(object, field, 32, false, "");
  if (!text) return MakeError(text.error());
  if (text->empty() || *text == first) return first_value;
  if (*text == second) return second_value;
  return MakeError(std::string(field) + ": must be \"" + first + "\" or \"" + second + "\", but is \"" + *text +
                   "\"");
}

Status ParseQuestions(const nlohmann::json& document, Survey& survey) {
  if (!document.contains("questions")) return MakeError("questions: required field is missing");
  const auto& list = document.at("questions");
  if (!list.is_array() || list.empty() || list.size() > kMaxQuestions) {
    return MakeError("questions: must be an array of 1 to " + std::to_string(kMaxQuestions) + " questions");
  }
  std::set<std::string> ids;
  for (std::size_t i = 0; i < list.size(); ++i) {
    const std::string where = "questions[" + std::to_string(i) + "]";
    auto question = ParseQuestion(list[i], where);
    if (!question) return MakeError(question.error());
    if (!ids.insert(question->id).second) return MakeError(where + ".id: duplicate question id \"" + question->id + "\"");
    survey.questions.push_back(std::move(question).value());
  }
  return OkStatus();
}

}  // namespace

std::optional<std::size_t> Survey::QuestionIndex(const std::string& question_id) const {
  for (std::size_t i = 0; i < questions.size(); ++i) {
    if (questions[i].id == question_id) return i;
  }
  return std::nullopt;
}

Result<Survey> ParseSurvey(const nlohmann::json& document) {
  DENIABLE_TRY(RequireObject(document, ""));
  DENIABLE_TRY(RejectUnknownFields(
      document, {"format", "id", "version", "title", "description", "results", "access", "questions"}, ""));
  auto format = ReadString(document, "format", 64, true, "");
  if (!format) return MakeError(format.error());
  if (*format != kSurveyFormat) {
    return MakeError("format: must be \"" + std::string(kSurveyFormat) + "\", but is \"" + *format + "\"");
  }
  Survey survey;
  auto id = ReadString(document, "id", 64, true, "");
  if (!id) return MakeError(id.error());
  DENIABLE_TRY(ValidateId(*id, "id"));
  survey.id = *id;
  auto version = ReadInteger(document, "version", 1, 1000000, "");
  if (!version) return MakeError(version.error());
  survey.version = static_cast<int>(*version);
  auto title = ReadString(document, "title", 200, true, "");
  if (!title) return MakeError(title.error());
  survey.title = *title;
  auto description = ReadString(document, "description", 5000, false, "");
  if (!description) return MakeError(description.error());
  survey.description = *description;
  auto results = ReadChoice(document, "results", "public", ResultsVisibility::kPublic, "admin",
                            ResultsVisibility::kAdmin);
  if (!results) return MakeError(results.error());
  survey.results = *results;
  auto access = ReadChoice(document, "access", "open", Access::kOpen, "invitation", Access::kInvitation);
  if (!access) return MakeError(access.error());
  survey.access = *access;
  DENIABLE_TRY(ParseQuestions(document, survey));
  return survey;
}

Result<Survey> ParseSurveyText(const std::string& text) {
  auto document = nlohmann::json::parse(text, nullptr, false);
  if (document.is_discarded()) return MakeError("the survey is not valid JSON");
  return ParseSurvey(document);
}

nlohmann::json MechanismToJson(const CategoricalMechanism& mechanism) {
  nlohmann::json object = {{"name", CategoricalKindName(mechanism.params().kind)}};
  if (mechanism.epsilon()) object["epsilon"] = *mechanism.epsilon();
  if (mechanism.params().kind == CategoricalKind::kNegativeSurvey) {
    object["reported_options"] = mechanism.params().reported_options;
  }
  return object;
}

nlohmann::json PrivacyToJson(const CategoricalMechanism& mechanism) {
  if (mechanism.epsilon()) return {{"epsilon", *mechanism.epsilon()}};
  return {{"epsilon", nullptr},
          {"note", "no formal epsilon: a reported option is never the respondent's answer, so the report rules "
                   "answers out with certainty (unbounded likelihood ratio)"}};
}

nlohmann::json QuestionPrivacyToJson(const Question& question) {
  return question.is_numeric() ? NumericPrivacyToJson(*question.numeric_mechanism)
                               : PrivacyToJson(*question.mechanism);
}

nlohmann::json QuestionMechanismToJson(const Question& question) {
  return question.is_numeric() ? question.numeric_mechanism->ParamsToJson() : MechanismToJson(*question.mechanism);
}

std::optional<double> Question::epsilon() const {
  return is_numeric() ? numeric_mechanism->epsilon() : mechanism->epsilon();
}

namespace {

nlohmann::json QuestionToJson(const Question& question) {
  nlohmann::json object = {{"id", question.id}, {"text", question.text}};
  if (question.is_numeric()) {
    object["type"] = "numeric";
    object["range"] = {question.range.low, question.range.high};
    if (!question.unit.empty()) object["unit"] = question.unit;
  } else {
    object["type"] = "categorical";
    object["options"] = question.options;
  }
  object["mechanism"] = QuestionMechanismToJson(question);
  return object;
}

}  // namespace

nlohmann::json SurveyToJson(const Survey& survey) {
  auto questions = nlohmann::json::array();
  for (const auto& question : survey.questions) questions.push_back(QuestionToJson(question));
  return {{"format", kSurveyFormat},
          {"id", survey.id},
          {"version", survey.version},
          {"title", survey.title},
          {"description", survey.description},
          {"results", survey.results == ResultsVisibility::kPublic ? "public" : "admin"},
          {"access", survey.access == Access::kOpen ? "open" : "invitation"},
          {"questions", questions}};
}

std::optional<double> TotalEpsilon(const Survey& survey) {
  double total = 0.0;
  for (const auto& question : survey.questions) {
    const auto epsilon = question.epsilon();
    if (!epsilon) return std::nullopt;
    total += *epsilon;
  }
  return total;
}

}  // namespace deniable
