#include "core/central/confidential_privacy.h"

#include "core/common/json_fields.h"
#include "core/common/validation.h"

namespace deniable {

Result<std::optional<ConfidentialPrivacy>> ParseTrustFields(const nlohmann::json& question, const std::string& where) {
  DENIABLE_ASSIGN_OR_RETURN(auto privacy, ReadString(question, "privacy", 16, false, where));
  if (privacy.empty() || privacy == "local") {
    for (const char* field : {"budget", "admin_sees_counts"}) {
      if (question.contains(field)) {
        return MakeError(where + "." + field + ": only for questions answered in confidence (\"privacy\": \"central\")");
      }
    }
    return std::optional<ConfidentialPrivacy>();
  }
  if (privacy != "central") {
    return MakeError(where + ".privacy: must be \"local\" (randomised on the device), \"central\" (answered in "
                             "confidence, published only through noisy releases) or \"open\" (asked openly, sent as "
                             "given), but is \"" + privacy + "\"");
  }
  if (question.contains("mechanism")) {
    return MakeError(where + ".mechanism: a question answered in confidence has no mechanism (its answer is not "
                             "randomised; each release chooses its method)");
  }
  if (!question.contains("budget")) {
    return MakeError(where + ".budget: required for a question answered in confidence (the total epsilon its "
                             "releases may spend)");
  }
  DENIABLE_ASSIGN_OR_RETURN(auto budget, ReadFiniteNumber(question, "budget", where));
  if (auto valid = ValidateEpsilon(budget, "budget"); !valid) return MakeError(where + ".budget: " + valid.error());
  ConfidentialPrivacy result;
  result.budget = budget;
  if (question.contains("admin_sees_counts")) {
    if (!question.at("admin_sees_counts").is_boolean()) {
      return MakeError(where + ".admin_sees_counts: must be true or false, but is " +
                       question.at("admin_sees_counts").dump());
    }
    result.admin_sees_counts = question.at("admin_sees_counts").get<bool>();
  }
  return std::optional<ConfidentialPrivacy>(result);
}

nlohmann::json TrustFieldsToJson(const ConfidentialPrivacy& privacy) {
  return {{"privacy", "central"}, {"budget", privacy.budget}, {"admin_sees_counts", privacy.admin_sees_counts}};
}

}  // namespace deniable
