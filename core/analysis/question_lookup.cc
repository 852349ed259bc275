#include "core/analysis/question_lookup.h"

namespace deniable {

Result<std::size_t> LookUpQuestion(const Survey& survey, const nlohmann::json& value, const std::string& where) {
  if (!value.is_string()) return MakeError(where + ": must be a question id, but is " + value.dump());
  const auto index = survey.QuestionIndex(value.get<std::string>());
  if (!index) return MakeError(where + ": no question \"" + value.get<std::string>() + "\" in survey \"" + survey.id + "\"");
  return *index;
}

std::string DescribeQuestion(const Question& question) {
  return "\"" + question.id + "\" (" + std::string(question.kind->type()) + ")";
}

}  // namespace deniable
