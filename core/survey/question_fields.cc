#include "core/survey/question_fields.h"

#include <map>
#include <set>
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

std::string OptionKey(const std::string& label) {
  std::string key;
  bool space = false;
  for (char c : label) {
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      space = !key.empty();
      continue;
    }
    if (space) key += ' ';
    space = false;
    key += (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
  }
  return key;
}

Result<std::vector<std::string>> ParseOptionsField(const nlohmann::json& object, const std::string& where,
                                                   std::size_t max_options) {
  const std::string path = where + ".options";
  if (!object.contains("options")) return MakeError(path + ": required field is missing");
  const auto& list = object.at("options");
  if (!list.is_array() || list.size() < 2 || list.size() > max_options) {
    return MakeError(path + ": must be an array of 2 to " + std::to_string(max_options) + " option labels");
  }
  std::vector<std::string> options;
  std::map<std::string, std::size_t> seen;  // option key -> index
  for (std::size_t i = 0; i < list.size(); ++i) {
    const std::string item = path + "[" + std::to_string(i) + "]";
    if (!list[i].is_string() || list[i].get<std::string>().empty() || list[i].get<std::string>().size() > 500) {
      return MakeError(item + ": must be a non-empty string of at most 500 bytes");
    }
    const std::string label = list[i].get<std::string>();
    const std::string key = OptionKey(label);
    if (key.empty()) return MakeError(item + ": must not be blank");
    const auto [earlier, inserted] = seen.emplace(key, i);
    if (!inserted) {
      const std::string& first = options[earlier->second];
      if (first == label) return MakeError(item + ": duplicate option \"" + label + "\"");
      return MakeError(item + ": \"" + label + "\" is the same option as options[" + std::to_string(earlier->second) +
                       "] \"" + first + "\" (options must differ by more than letter case or spaces)");
    }
    options.push_back(label);
  }
  return options;
}

}  // namespace deniable
