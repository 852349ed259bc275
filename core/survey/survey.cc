#include "core/survey/survey.h"

#include <algorithm>

#include <set>

#include "core/common/json_fields.h"
#include "core/survey/kind_registry.h"
#include "core/common/validation.h"

namespace deniable {
namespace {

constexpr std::size_t kMaxQuestions = 200;

// "required": true (the default) or false.
Result<bool> ReadRequired(const nlohmann::json& object, const std::string& where) {
  if (!object.contains("required")) return true;
  if (!object.at("required").is_boolean()) {
    return MakeError(where + ".required: must be true or false, but is " + object.at("required").dump());
  }
  return object.at("required").get<bool>();
}

// The two parses differ only in what a question's type gives: the full kind
// (ParseSurvey) or its client half alone (ParseClientSurvey). Each is
// instantiated separately, so the client's never names a full kind's parser.
struct FullKinds {
  static Status ParseKind(const nlohmann::json& object, const std::string& type, const std::string& where,
                          Question& question) {
    auto entry = type.empty() ? Result<KindEntry>(RegisteredKinds().front()) : FindKind(type);
    if (!entry) return InContext(where + ".type", entry.error());
    DENIABLE_ASSIGN_OR_RETURN(auto kind, entry->parse(object, where));
    question.client = kind;
    question.kind = std::move(kind);
    return OkStatus();
  }
  static Status Link(const Survey& survey, const std::string& where, Question& question) {
    const EarlierQuestions earlier = [&survey](const std::string& id) -> const QuestionKind* {
      const auto index = survey.QuestionIndex(id);
      return index ? survey.questions[*index].kind.get() : nullptr;
    };
    DENIABLE_ASSIGN_OR_RETURN(auto linked, question.kind->Link(earlier, where));
    if (linked) {
      question.client = linked;
      question.kind = std::move(linked);
    }
    return OkStatus();
  }
};

struct ClientKinds {
  static Status ParseKind(const nlohmann::json& object, const std::string& type, const std::string& where,
                          Question& question) {
    auto entry = type.empty() ? Result<KindClientEntry>(RegisteredClientKinds().front()) : FindClientKind(type);
    if (!entry) return InContext(where + ".type", entry.error());
    DENIABLE_ASSIGN_OR_RETURN(auto client, entry->parse(object, where));
    question.client = std::move(client);
    return OkStatus();
  }
  static Status Link(const Survey& survey, const std::string& where, Question& question) {
    const EarlierClients earlier = [&survey](const std::string& id) -> const KindClient* {
      const auto index = survey.QuestionIndex(id);
      return index ? survey.questions[*index].client.get() : nullptr;
    };
    DENIABLE_ASSIGN_OR_RETURN(auto linked, question.client->LinkClient(earlier, where));
    if (linked) question.client = std::move(linked);
    return OkStatus();
  }
};

template <typename Kinds>
Result<Question> ParseQuestion(const nlohmann::json& object, const std::string& where) {
  DENIABLE_TRY(RequireObject(object, where));
  Question question;
  DENIABLE_ASSIGN_OR_RETURN(auto id, ReadString(object, "id", 64, true, where));
  DENIABLE_TRY(ValidateId(id, where + ".id"));
  question.id = id;
  DENIABLE_ASSIGN_OR_RETURN(auto text, ReadString(object, "text", 2000, true, where));
  question.text = text;
  DENIABLE_ASSIGN_OR_RETURN(auto required, ReadRequired(object, where));
  question.required = required;
  DENIABLE_ASSIGN_OR_RETURN(auto type, ReadString(object, "type", 32, false, where));
  if (object.contains("show_if")) {
    // The condition is the survey's (ParseQuestions reads it); the kind sees its own fields only.
    nlohmann::json own = object;
    own.erase("show_if");
    DENIABLE_TRY(Kinds::ParseKind(own, type, where, question));
  } else {
    DENIABLE_TRY(Kinds::ParseKind(object, type, where, question));
  }
  return question;
}

template <typename Enum>
Result<Enum> ReadChoice(const nlohmann::json& object, const char* field, const char* first, Enum first_value,
                        const char* second, Enum second_value) {
  DENIABLE_ASSIGN_OR_RETURN(auto text, ReadString(object, field, 32, false, ""));
  if (text.empty() || text == first) return first_value;
  if (text == second) return second_value;
  return MakeError(std::string(field) + ": must be \"" + first + "\" or \"" + second + "\", but is \"" + text +
                   "\"");
}

template <typename Kinds>
Status ParseQuestions(const nlohmann::json& document, Survey& survey) {
  if (!document.contains("questions")) return MakeError("questions: required field is missing");
  const auto& list = document.at("questions");
  if (!list.is_array() || list.empty() || list.size() > kMaxQuestions) {
    return MakeError("questions: must be an array of 1 to " + std::to_string(kMaxQuestions) + " questions");
  }
  std::set<std::string> ids;
  for (std::size_t i = 0; i < list.size(); ++i) {
    const std::string where = "questions[" + std::to_string(i) + "]";
    DENIABLE_ASSIGN_OR_RETURN(auto question, ParseQuestion<Kinds>(list[i], where));
    if (!ids.insert(question.id).second) return MakeError(where + ".id: duplicate question id \"" + question.id + "\"");
    Question parsed = std::move(question);
    DENIABLE_ASSIGN_OR_RETURN(parsed.show_if, ParseCondition(list[i], where, survey, list));
    DENIABLE_TRY(Kinds::Link(survey, where, parsed));
    survey.questions.push_back(std::move(parsed));
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

namespace {

// A BCP 47 language tag's shape: a primary subtag of 2-3 letters, then subtags
// of 1-8 letters or digits joined by "-" ("en", "fr", "pt-BR", "zh-Hant-TW").
bool IsLanguageTag(const std::string& tag) {
  std::size_t start = 0;
  for (std::size_t index = 0;; ++index) {
    const std::size_t end = std::min(tag.find('-', start), tag.size());
    const std::size_t length = end - start;
    if (index == 0 ? (length < 2 || length > 3) : (length < 1 || length > 8)) return false;
    for (std::size_t i = start; i < end; ++i) {
      const char c = tag[i];
      const bool letter = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
      if (!letter && (index == 0 || c < '0' || c > '9')) return false;
    }
    if (end == tag.size()) return true;
    start = end + 1;
  }
}

}  // namespace

namespace {

template <typename Kinds>
Result<Survey> ParseSurveyWith(const nlohmann::json& document) {
  DENIABLE_TRY(RequireObject(document, ""));
  DENIABLE_TRY(RejectUnknownFields(
      document, {"format", "id", "version", "title", "description", "language", "results", "access", "questions",
                 "analyses"}, ""));
  DENIABLE_ASSIGN_OR_RETURN(auto format, ReadString(document, "format", 64, true, ""));
  if (format != kSurveyFormat) {
    return MakeError("format: must be \"" + std::string(kSurveyFormat) + "\", but is \"" + format + "\"");
  }
  Survey survey;
  DENIABLE_ASSIGN_OR_RETURN(auto id, ReadString(document, "id", 64, true, ""));
  DENIABLE_TRY(ValidateId(id, "id"));
  survey.id = id;
  DENIABLE_ASSIGN_OR_RETURN(auto version, ReadInteger(document, "version", 1, 1000000, ""));
  survey.version = static_cast<int>(version);
  DENIABLE_ASSIGN_OR_RETURN(auto title, ReadString(document, "title", 200, true, ""));
  survey.title = title;
  DENIABLE_ASSIGN_OR_RETURN(auto description, ReadString(document, "description", 5000, false, ""));
  survey.description = description;
  DENIABLE_ASSIGN_OR_RETURN(auto language, ReadString(document, "language", 35, false, ""));
  if (!language.empty() && !IsLanguageTag(language)) {
    return MakeError("language: must be a language tag such as \"en\", \"fr\" or \"pt-BR\", but is \"" + language + "\"");
  }
  survey.language = language;
  // Admin-only unless the definition says "public": the same default as the
  // creation page (a survey that forgot the field does not publish its results).
  DENIABLE_ASSIGN_OR_RETURN(auto results,
                            ReadChoice(document, "results", "admin", ResultsVisibility::kAdmin, "public",
                                       ResultsVisibility::kPublic));
  survey.results = results;
  DENIABLE_ASSIGN_OR_RETURN(auto access,
                            ReadChoice(document, "access", "open", Access::kOpen, "invitation", Access::kInvitation));
  survey.access = access;
  DENIABLE_TRY(ParseQuestions<Kinds>(document, survey));
  if (document.contains("analyses")) {
    const auto& analyses = document.at("analyses");
    if (!analyses.is_array() || analyses.size() > kMaxDeclaredAnalyses) {
      return MakeError("analyses: must be an array of at most " + std::to_string(kMaxDeclaredAnalyses) +
                       " analyses ({\"by\", \"question\"}, {\"cross\": [...]} or {\"regress\", \"on\"})");
    }
    for (std::size_t i = 0; i < analyses.size(); ++i) {
      if (!analyses[i].is_object() || analyses[i].empty() || analyses[i].size() > 4) {
        return MakeError("analyses[" + std::to_string(i) + "]: must be an analysis object, such as {\"by\": \"region\", "
                         "\"question\": \"drug\"}");
      }
      survey.analyses.push_back(analyses[i]);
    }
  }
  return survey;
}

}  // namespace

Result<Survey> ParseSurvey(const nlohmann::json& document) { return ParseSurveyWith<FullKinds>(document); }

Result<Survey> ParseClientSurvey(const nlohmann::json& document) { return ParseSurveyWith<ClientKinds>(document); }

Result<Survey> ParseSurveyText(const std::string& text) {
  auto document = nlohmann::json::parse(text, nullptr, false);
  if (document.is_discarded()) return MakeError("the survey is not valid JSON");
  return ParseSurvey(document);
}

namespace {

nlohmann::json QuestionToJson(const Question& question) {
  nlohmann::json object = question.client->DefinitionToJson();
  object["id"] = question.id;
  object["text"] = question.text;
  if (!question.required) object["required"] = false;
  if (question.show_if) object["show_if"] = ConditionToJson(*question.show_if);
  return object;
}

}  // namespace

nlohmann::json SurveyToJson(const Survey& survey) {
  auto questions = nlohmann::json::array();
  for (const auto& question : survey.questions) questions.push_back(QuestionToJson(question));
  nlohmann::json document = {{"format", kSurveyFormat},
          {"id", survey.id},
          {"version", survey.version},
          {"title", survey.title},
          {"description", survey.description},
          {"results", survey.results == ResultsVisibility::kPublic ? "public" : "admin"},
          {"access", survey.access == Access::kOpen ? "open" : "invitation"},
          {"questions", questions}};
  if (!survey.language.empty()) document["language"] = survey.language;
  if (!survey.analyses.empty()) document["analyses"] = survey.analyses;
  return document;
}

std::optional<double> TotalEpsilon(const Survey& survey) {
  double total = 0.0;
  for (const auto& question : survey.questions) {
    // Questions asked openly are outside the guarantee (open_privacy.h): the
    // randomised answers keep their epsilons whatever the open ones are.
    if (question.client->trust() == Trust::kOpen) continue;
    const auto epsilon = question.epsilon();
    if (!epsilon) return std::nullopt;
    total += *epsilon;
  }
  return total;
}

bool QuestionShown(const Question& question, const nlohmann::json& answers) {
  return !question.show_if || ConditionHolds(*question.show_if, answers);
}

}  // namespace deniable
