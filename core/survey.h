// The survey definition: a versioned JSON document (README "Survey format").
// ParseSurvey validates every field and names the first problem it finds,
// e.g. "questions[1].mechanism.epsilon: epsilon must be finite and in [0.01, 30], but is 0".
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/categorical_mechanism.h"
#include "core/numeric_mechanism.h"
#include "core/result.h"

namespace deniable {

inline constexpr const char* kSurveyFormat = "deniable.survey/v1";

enum class ResultsVisibility { kPublic, kAdmin };
enum class Access { kOpen, kInvitation };

enum class QuestionType { kCategorical, kNumeric };

struct Question {
  std::string id;
  std::string text;
  QuestionType type = QuestionType::kCategorical;
  // Categorical questions: the option labels and their mechanism.
  std::vector<std::string> options;
  std::shared_ptr<const CategoricalMechanism> mechanism;
  // Numeric questions: the answer range [a, b], its unit, and the mechanism.
  NumericRange range{0.0, 1.0};
  std::string unit;
  std::shared_ptr<const NumericMechanism> numeric_mechanism;

  bool is_numeric() const { return type == QuestionType::kNumeric; }
  // The question's LDP epsilon; nullopt when it has no finite epsilon.
  std::optional<double> epsilon() const;
};

struct Survey {
  std::string id;
  int version = 1;
  std::string title;
  std::string description;
  ResultsVisibility results = ResultsVisibility::kPublic;
  Access access = Access::kOpen;
  std::vector<Question> questions;

  // Index of the question with this id, or nullopt.
  std::optional<std::size_t> QuestionIndex(const std::string& question_id) const;
};

Result<Survey> ParseSurvey(const nlohmann::json& document);
Result<Survey> ParseSurveyText(const std::string& text);

// The canonical JSON form (stored, served to pages); ParseSurvey(SurveyToJson(s)) == s.
nlohmann::json SurveyToJson(const Survey& survey);

// Sequential composition: a respondent spends the sum of the questions'
// epsilons. nullopt when any question has no finite epsilon.
std::optional<double> TotalEpsilon(const Survey& survey);

// JSON describing a question's privacy for display: {"epsilon": 1.0} or
// {"epsilon": null, "note": "no formal epsilon: ..."}.
nlohmann::json PrivacyToJson(const CategoricalMechanism& mechanism);
nlohmann::json MechanismToJson(const CategoricalMechanism& mechanism);
// The same for any question, categorical or numeric.
nlohmann::json QuestionPrivacyToJson(const Question& question);
nlohmann::json QuestionMechanismToJson(const Question& question);

}  // namespace deniable
