#include "core/survey/text_correction.h"

#include <algorithm>
#include <set>

#include "core/survey/conditions.h"
#include "core/survey/question_fields.h"

namespace deniable {
namespace {

const char* const kPrivacyPromise = "the privacy promise given to earlier respondents would change";
const char* const kOnlyWording =
    "only wording (texts, and the words of options) may be corrected while a survey runs: reports already collected "
    "answered the survey as it was";

// A refusal: the path, what changed, and why that needs a new version.
Error NeedsNewVersion(const std::string& path, const std::string& what) {
  return MakeError(path + ": " + what + "; publish a new version instead", ErrorCode::kConflict);
}

// A value as it reads in a message, cut short.
std::string Shown(const nlohmann::json& value) {
  if (value.is_null()) return "nothing";
  std::string text = value.dump();
  if (text.size() > 60) text = text.substr(0, 57) + "...";
  return text;
}

std::string FromTo(const nlohmann::json& before, const nlohmann::json& after) {
  return " (" + Shown(before) + " to " + Shown(after) + ")";
}

nlohmann::json Field(const nlohmann::json& object, const std::string& key) {
  return object.contains(key) ? object.at(key) : nlohmann::json();
}

std::string TextOf(const nlohmann::json& value) { return value.is_string() ? value.get<std::string>() : ""; }

bool Listed(const std::vector<std::string>& list, const std::string& key) {
  return std::find(list.begin(), list.end(), key) != list.end();
}

// Every key of either object: a field added or removed is a difference too.
std::set<std::string> Keys(const nlohmann::json& a, const nlohmann::json& b) {
  std::set<std::string> keys;
  for (const auto& object : {a, b}) {
    for (auto it = object.begin(); it != object.end(); ++it) keys.insert(it.key());
  }
  return keys;
}

bool IsWords(const nlohmann::json& list) {
  return list.is_array() && std::all_of(list.begin(), list.end(), [](const auto& item) { return item.is_string(); });
}

// "the options'", "the scale's": the list's name as a possessive.
std::string Possessive(const std::string& key) { return "the " + key + (key.back() == 's' ? "'" : "'s"); }

// A list of words (`options`): the same count and order, each entry's words
// free. An entry that now reads as another entry did is a reordering: reports
// count options by position, so they would be counted against other words.
Status CompareWords(const std::string& path, const std::string& where, const std::string& key,
                    const nlohmann::json& before, const nlohmann::json& after, std::vector<WordingChange>& changes) {
  const std::string counted = "reports already collected would be counted against different " + key;
  if (before.size() != after.size()) {
    return NeedsNewVersion(path, Possessive(key) + " number changed (" + std::to_string(before.size()) + " to " +
                                     std::to_string(after.size()) + "): " + counted);
  }
  for (std::size_t j = 0; j < after.size(); ++j) {
    const std::string now = after[j].get<std::string>();
    if (now == before[j].get<std::string>()) continue;
    for (std::size_t k = 0; k < before.size(); ++k) {
      if (k != j && OptionKey(before[k].get<std::string>()) == OptionKey(now)) {
        return NeedsNewVersion(path, Possessive(key) + " order changed (" + Shown(now) + " was at " +
                                         std::to_string(k + 1) + ", now at " + std::to_string(j + 1) + "): " + counted);
      }
    }
  }
  for (std::size_t j = 0; j < after.size(); ++j) {
    if (after[j] == before[j]) continue;
    changes.push_back({path + "[" + std::to_string(j) + "]", where + (key == "options" ? "option" : key) + " " +
                                                              std::to_string(j + 1),
                       before[j].get<std::string>(), after[j].get<std::string>()});
  }
  return OkStatus();
}

// Why a question's field other than wording cannot change while it runs.
Error QuestionFieldFixed(const std::string& path, const std::string& key, const nlohmann::json& before,
                         const nlohmann::json& after) {
  if (key == "id") return NeedsNewVersion(path, "the question's id changed" + FromTo(before, after) + ": reports name their questions by id");
  if (key == "type") {
    return NeedsNewVersion(path, "the question's type changed" + FromTo(before, after) +
                                     ": reports already collected answer a question of the old type");
  }
  if (key == "mechanism" && before.is_object() && after.is_object()) {
    if (Field(before, "name") != Field(after, "name")) {
      return NeedsNewVersion(path + ".name", "the mechanism changed" + FromTo(Field(before, "name"), Field(after, "name")) +
                                                 ": " + kPrivacyPromise);
    }
    if (Field(before, "epsilon") != Field(after, "epsilon")) {
      return NeedsNewVersion(path + ".epsilon", "the epsilon changed" +
                                                    FromTo(Field(before, "epsilon"), Field(after, "epsilon")) + ": " +
                                                    kPrivacyPromise);
    }
    return NeedsNewVersion(path, "the mechanism's parameters changed" + FromTo(before, after) + ": " + kPrivacyPromise);
  }
  if (key == "mechanism" || key == "privacy" || key == "budget" || key == "epsilon" || key == "admin_sees_counts") {
    return NeedsNewVersion(path, "the question's " + key + " changed" + FromTo(before, after) + ": " + kPrivacyPromise);
  }
  if (key == "required") {
    return NeedsNewVersion(path, "whether the question may be skipped changed: reports already collected were checked "
                                 "against the old rule");
  }
  return NeedsNewVersion(path, "changed" + FromTo(before, after) + ": " + kOnlyWording);
}

// The same condition (show_if): the same question, the same options by
// position, the same bounds. Its words are the named question's options,
// whose rewording is recorded there, so they may differ.
bool SameCondition(const std::optional<Condition>& running, const std::optional<Condition>& proposed) {
  if (!running || !proposed) return !running && !proposed;
  return running->question == proposed->question && running->any_of == proposed->any_of &&
         running->at_least == proposed->at_least && running->at_most == proposed->at_most;
}

Status CompareQuestion(std::size_t index, const Question& running, const Question& proposed,
                       const nlohmann::json& before, const nlohmann::json& after, std::vector<WordingChange>& changes) {
  const std::string path = "questions[" + std::to_string(index) + "]";
  if (before.at("id") != after.at("id")) return QuestionFieldFixed(path + ".id", "id", before.at("id"), after.at("id"));
  if (Field(before, "type") != Field(after, "type")) {
    return QuestionFieldFixed(path + ".type", "type", Field(before, "type"), Field(after, "type"));
  }
  const WordingFields wording = running.client->wording_fields();
  const std::string where = "question \"" + running.id + "\": ";
  for (const std::string& key : Keys(before, after)) {
    const nlohmann::json old_value = Field(before, key);
    const nlohmann::json new_value = Field(after, key);
    if (old_value == new_value) continue;
    const std::string field = path + "." + key;
    if (key == "show_if") {
      if (SameCondition(running.show_if, proposed.show_if)) continue;
      return NeedsNewVersion(field, "the condition changed" + FromTo(old_value, new_value) +
                                        ": who is asked the question would change for the reports still to come");
    }
    if (Listed(wording.texts, key) && (old_value.is_string() || old_value.is_null()) &&
        (new_value.is_string() || new_value.is_null())) {
      changes.push_back({field, where + key, TextOf(old_value), TextOf(new_value)});
    } else if (Listed(wording.lists, key) && IsWords(old_value) && IsWords(new_value)) {
      DENIABLE_TRY(CompareWords(field, where, key, old_value, new_value, changes));
    } else {
      return QuestionFieldFixed(field, key, old_value, new_value);
    }
  }
  return OkStatus();
}

// The survey's own fields: title and description are wording; the rest fixed.
Status CompareSurveyFields(const nlohmann::json& before, const nlohmann::json& after,
                           std::vector<WordingChange>& changes) {
  for (const std::string& key : Keys(before, after)) {
    const nlohmann::json old_value = Field(before, key);
    const nlohmann::json new_value = Field(after, key);
    if (key == "questions" || old_value == new_value) continue;
    if (key == "title" || key == "description") {
      changes.push_back({key, key, TextOf(old_value), TextOf(new_value)});
    } else if (key == "id") {
      return NeedsNewVersion(key, "the survey's id changed" + FromTo(old_value, new_value) +
                                      ": a correction corrects the running survey (a new version takes a new id)");
    } else if (key == "version") {
      return NeedsNewVersion(key, "the version changed" + FromTo(old_value, new_value) +
                                      ": a correction keeps the version that reports name");
    } else {
      return NeedsNewVersion(key, "changed" + FromTo(old_value, new_value) + ": " + kOnlyWording);
    }
  }
  return OkStatus();
}

}  // namespace

Result<std::vector<WordingChange>> CompareWording(const Survey& running, const nlohmann::json& proposed) {
  // Compared in canonical form: defaults written out, so that leaving a
  // default field out is no difference.
  DENIABLE_ASSIGN_OR_RETURN(const Survey parsed, ParseSurvey(proposed));
  const nlohmann::json before = SurveyToJson(running);
  const nlohmann::json after = SurveyToJson(parsed);
  std::vector<WordingChange> changes;
  DENIABLE_TRY(CompareSurveyFields(before, after, changes));
  const auto& old_questions = before.at("questions");
  const auto& new_questions = after.at("questions");
  if (old_questions.size() != new_questions.size()) {
    return NeedsNewVersion("questions", "the number of questions changed (" + std::to_string(old_questions.size()) +
                                            " to " + std::to_string(new_questions.size()) +
                                            "): reports already collected answer the questions as they were");
  }
  for (std::size_t i = 0; i < old_questions.size(); ++i) {
    DENIABLE_TRY(CompareQuestion(i, running.questions[i], parsed.questions[i], old_questions[i], new_questions[i], changes));
  }
  return changes;
}

nlohmann::json WordingChangesToJson(const std::vector<WordingChange>& changes) {
  auto list = nlohmann::json::array();
  for (const auto& change : changes) {
    list.push_back({{"path", change.path}, {"where", change.where}, {"before", change.before}, {"after", change.after}});
  }
  return list;
}

}  // namespace deniable
