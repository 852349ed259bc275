#include "core/survey/question_fields.h"

#include <vector>

#include "core/common/json_fields.h"

namespace deniable {

Status RejectUnknownQuestionFields(const nlohmann::json& question, std::initializer_list<const char*> kind_fields,
                                   const std::string& where) {
  std::vector<std::string> allowed = {"id", "text", "type"};
  allowed.insert(allowed.end(), kind_fields.begin(), kind_fields.end());
  allowed.push_back("required");
  return RejectUnknownFields(question, allowed, where);
}

Result<NumericRange> ParseRangeField(const nlohmann::json& question, const std::string& where) {
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

}  // namespace deniable
