#include "core/survey/conditions.h"

#include <algorithm>
#include <cmath>

#include "core/common/json_fields.h"
#include "core/common/validation.h"
#include "core/survey/survey.h"

namespace deniable {
namespace {

constexpr const char* kWhyOpenOnly =
    "a condition can name only a question asked openly (\"privacy\": \"open\"): whether a follow-up is answered "
    "would reveal the true answer";

// The named question must come before this one and be asked openly.
Result<std::size_t> FindNamedQuestion(const std::string& id, const std::string& self_id, const Survey& earlier,
                                      const nlohmann::json& questions, const std::string& path) {
  if (id == self_id) return MakeError(path + ": a question cannot be shown on a condition on its own answer");
  const auto index = earlier.QuestionIndex(id);
  if (!index) {
    const bool later = questions.is_array() && std::any_of(questions.begin(), questions.end(), [&id](const auto& q) {
      return q.is_object() && q.contains("id") && q.at("id") == id;
    });
    if (later) return MakeError(path + ": \"" + id + "\" comes after this question; a condition can name only an earlier question");
    return MakeError(path + ": no question with the id \"" + id + "\"");
  }
  const Trust trust = earlier.questions[*index].client->trust();
  if (trust == Trust::kLocal) return MakeError(path + ": \"" + id + "\" is randomised on the device; " + kWhyOpenOnly);
  if (trust == Trust::kCentral) return MakeError(path + ": \"" + id + "\" is answered in confidence; " + kWhyOpenOnly);
  return *index;
}

Status ParseOptions(const nlohmann::json& show_if, const nlohmann::json& definition, const std::string& where,
                    Condition& condition) {
  const std::string path = where + ".any_of";
  if (show_if.contains("at_least") || show_if.contains("at_most")) {
    return MakeError(where + ": \"" + condition.question + "\" is a categorical question: name its options in "
                     "\"any_of\", not bounds");
  }
  if (!show_if.contains("any_of")) return MakeError(path + ": required field is missing (the options that show this question)");
  const auto& any_of = show_if.at("any_of");
  const auto& options = definition.at("options");
  if (!any_of.is_array() || any_of.empty()) {
    return MakeError(path + ": must be a non-empty array of options of \"" + condition.question + "\", but is " + any_of.dump());
  }
  for (std::size_t i = 0; i < any_of.size(); ++i) {
    const std::string item = path + "[" + std::to_string(i) + "]";
    const auto found = any_of[i].is_string() ? std::find(options.begin(), options.end(), any_of[i]) : options.end();
    if (found == options.end()) {
      return MakeError(item + ": must be one of the options of \"" + condition.question + "\" (" + options.dump() +
                       "), but is " + any_of[i].dump());
    }
    const auto index = static_cast<std::size_t>(found - options.begin());
    if (std::find(condition.any_of.begin(), condition.any_of.end(), index) != condition.any_of.end()) {
      return MakeError(item + ": " + any_of[i].dump() + " is named twice");
    }
    condition.any_of.push_back(index);
    condition.any_of_labels.push_back(any_of[i].get<std::string>());
  }
  return OkStatus();
}

Result<std::optional<double>> ReadBound(const nlohmann::json& show_if, const char* field, const std::string& where) {
  if (!show_if.contains(field)) return std::optional<double>();
  DENIABLE_ASSIGN_OR_RETURN(auto value, ReadFiniteNumber(show_if, field, where));
  return std::optional<double>(value);
}

Status ParseBounds(const nlohmann::json& show_if, const std::string& where, Condition& condition) {
  if (show_if.contains("any_of")) {
    return MakeError(where + ": \"" + condition.question + "\" is a numeric question: give \"at_least\" and/or "
                     "\"at_most\", not \"any_of\"");
  }
  DENIABLE_ASSIGN_OR_RETURN(auto at_least, ReadBound(show_if, "at_least", where));
  DENIABLE_ASSIGN_OR_RETURN(auto at_most, ReadBound(show_if, "at_most", where));
  if (!at_least && !at_most) return MakeError(where + ": give \"at_least\", \"at_most\" or both");
  if (at_least && at_most && *at_least > *at_most) {
    return MakeError(where + ": at_least (" + FormatNumber(*at_least) + ") is above at_most (" + FormatNumber(*at_most) + ")");
  }
  condition.at_least = at_least;
  condition.at_most = at_most;
  return OkStatus();
}

}  // namespace

Result<std::optional<Condition>> ParseCondition(const nlohmann::json& question, const std::string& where,
                                                const Survey& earlier, const nlohmann::json& questions) {
  if (!question.contains("show_if")) return std::optional<Condition>();
  const std::string path = where + ".show_if";
  const auto& show_if = question.at("show_if");
  if (!show_if.is_object()) {
    return MakeError(path + ": must be {\"question\": <an earlier question asked openly>, \"any_of\": [options]} or "
                     "{\"question\", \"at_least\", \"at_most\"}, but is " + show_if.dump());
  }
  DENIABLE_TRY(RejectUnknownFields(show_if, {"question", "any_of", "at_least", "at_most"}, path));
  DENIABLE_ASSIGN_OR_RETURN(auto id, ReadString(show_if, "question", 64, true, path));
  const std::string self_id = question.contains("id") && question.at("id").is_string() ? question.at("id").get<std::string>() : "";
  Condition condition;
  condition.question = id;
  DENIABLE_ASSIGN_OR_RETURN(condition.index, FindNamedQuestion(id, self_id, earlier, questions, path + ".question"));
  const auto& named = *earlier.questions[condition.index].client;
  const nlohmann::json definition = named.DefinitionToJson();
  if (definition.contains("options")) {
    DENIABLE_TRY(ParseOptions(show_if, definition, path, condition));
  } else if (named.numeric_answers()) {
    DENIABLE_TRY(ParseBounds(show_if, path, condition));
  } else {
    return MakeError(path + ".question: \"" + id + "\" is a " + std::string(named.type()) +
                     " question; a condition can name a categorical or numeric question asked openly");
  }
  return std::optional<Condition>(std::move(condition));
}

nlohmann::json ConditionToJson(const Condition& condition) {
  nlohmann::json object = {{"question", condition.question}};
  if (condition.on_options()) object["any_of"] = condition.any_of_labels;
  if (condition.at_least) object["at_least"] = *condition.at_least;
  if (condition.at_most) object["at_most"] = *condition.at_most;
  return object;
}

bool ConditionHolds(const Condition& condition, const nlohmann::json& answers) {
  if (!answers.is_object() || !answers.contains(condition.question)) return false;
  const auto& answer = answers.at(condition.question);
  if (condition.on_options()) {
    if (!answer.is_number_integer() || answer.get<std::int64_t>() < 0) return false;
    const auto index = static_cast<std::size_t>(answer.get<std::int64_t>());
    return std::find(condition.any_of.begin(), condition.any_of.end(), index) != condition.any_of.end();
  }
  if (!answer.is_number() || !std::isfinite(answer.get<double>())) return false;
  const double value = answer.get<double>();
  return (!condition.at_least || value >= *condition.at_least) && (!condition.at_most || value <= *condition.at_most);
}

std::string DescribeCondition(const Condition& condition) {
  std::string words = condition.question + " is ";
  if (condition.on_options()) {
    for (std::size_t i = 0; i < condition.any_of_labels.size(); ++i) {
      if (i > 0) words += i + 1 == condition.any_of_labels.size() ? " or " : ", ";
      words += "\"" + condition.any_of_labels[i] + "\"";
    }
    return words;
  }
  if (condition.at_least && condition.at_most) {
    return words + "between " + FormatNumber(*condition.at_least) + " and " + FormatNumber(*condition.at_most);
  }
  return condition.at_least ? words + "at least " + FormatNumber(*condition.at_least)
                            : words + "at most " + FormatNumber(*condition.at_most);
}

}  // namespace deniable
