#include "core/kinds/open/open_privacy.h"

#include "core/common/json_fields.h"

namespace deniable {

Result<bool> IsOpenQuestion(const nlohmann::json& question, const std::string& where) {
  if (!question.contains("privacy") || question.at("privacy") != kOpenPrivacy) return false;
  for (const char* field : {"mechanism", "budget", "admin_sees_counts"}) {
    if (question.contains(field)) {
      return MakeError(where + "." + field + ": a question asked openly (\"privacy\": \"open\") has no " + field +
                       " (its answer is sent as given)");
    }
  }
  return true;
}

nlohmann::json OpenPrivacyToJson() {
  return {{"epsilon", nullptr},
          {"trust", kOpenPrivacy},
          {"note", "asked openly: the answer is sent as given and published exactly; no privacy protection applies "
                   "to it. The randomised answers keep their epsilon whatever the open answers are. Counts of 1 to 4 "
                   "respondents are not shown."}};
}

}  // namespace deniable
