// The survey definition: a versioned JSON document (README "Survey format").
// ParseSurvey validates every field and names the first problem it finds,
// e.g. "questions[1].mechanism.epsilon: epsilon must be finite and in [0.01, 30], but is 0".
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/common/result.h"
#include "core/survey/conditions.h"
#include "core/survey/question_kind.h"

namespace deniable {

inline constexpr const char* kSurveyFormat = "deniable.survey/v1";
inline constexpr std::size_t kMaxDeclaredAnalyses = 16;

enum class ResultsVisibility { kPublic, kAdmin };
enum class Access { kOpen, kInvitation };

// A question: what every kind shares (id, text, whether it may be skipped)
// and its kind, which holds everything else: `client`, the client half
// (kind_client.h), always; `kind`, the full kind (question_kind.h), after
// ParseSurvey, and null after ParseClientSurvey. When both are set they are
// the same object.
struct Question {
  std::string id;
  std::string text;
  // An optional question may be skipped: the report then omits it (the
  // server sees that it was skipped), and its aggregate counts only the
  // respondents who answered it.
  bool required = true;
  // "show_if" (conditions.h): asked only when an earlier open question's
  // answer meets it; hidden, the question is skipped (not in the report),
  // whether required or not.
  std::optional<Condition> show_if;
  std::shared_ptr<const KindClient> client;
  std::shared_ptr<const QuestionKind> kind;

  // The question's LDP epsilon; nullopt when it has no finite epsilon.
  std::optional<double> epsilon() const { return client->epsilon(); }
};

struct Survey {
  std::string id;
  int version = 1;
  std::string title;
  std::string description;
  // The respondents' language as a BCP 47 tag ("fr", "pt-BR"): the page's lang, its fixed text where it has
  // that language, and its number formats. Empty: English.
  std::string language;
  ResultsVisibility results = ResultsVisibility::kPublic;
  Access access = Access::kOpen;
  std::vector<Question> questions;
  // Analyses across questions declared with the survey (core/analysis/:
  // breakdowns, cross-tabs, regressions), which the server keeps up to date
  // as reports arrive. Here only their form is checked (objects, at most
  // kMaxDeclaredAnalyses); the server checks each against the questions
  // (core/analysis is not part of the page's WebAssembly).
  std::vector<nlohmann::json> analyses;

  // Index of the question with this id, or nullopt.
  std::optional<std::size_t> QuestionIndex(const std::string& question_id) const;
};

Result<Survey> ParseSurvey(const nlohmann::json& document);
Result<Survey> ParseSurveyText(const std::string& text);
// The same checks and messages as ParseSurvey, but each question gets only
// its client half (Question::kind stays null): the respondent's module parses
// with this, so it links no aggregation or estimation code.
Result<Survey> ParseClientSurvey(const nlohmann::json& document);

// The canonical JSON form (stored, served to pages); ParseSurvey(SurveyToJson(s)) == s.
// Reads only the client halves, so it works after either parse.
nlohmann::json SurveyToJson(const Survey& survey);

// Sequential composition: a respondent who answers every question spends the
// sum of the questions' epsilons (skipping an optional question spends less).
// nullopt when any question has no finite epsilon.
std::optional<double> TotalEpsilon(const Survey& survey);

// Whether the question is asked given these answers ({<id>: answer as given};
// a report's responses do, since conditions name only open questions): true
// without a condition.
bool QuestionShown(const Question& question, const nlohmann::json& answers);

}  // namespace deniable
