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

}  // namespace deniable
