#include "core/kinds/open/open_privacy.h"

#include <optional>

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

std::vector<bool> HiddenCounts(const std::vector<std::int64_t>& counts) {
  std::vector<bool> hidden(counts.size(), false);
  std::size_t primary = 0;
  for (std::size_t c = 0; c < counts.size(); ++c) {
    hidden[c] = counts[c] > 0 && counts[c] < kSmallCellLimit;
    primary += hidden[c] ? 1 : 0;
  }
  if (primary != 1) return hidden;
  std::optional<std::size_t> smallest;
  for (std::size_t c = 0; c < counts.size(); ++c) {
    if (!hidden[c] && (!smallest || counts[c] < counts[*smallest])) smallest = c;
  }
  if (smallest) hidden[*smallest] = true;
  return hidden;
}

nlohmann::json OpenPrivacyToJson() {
  return {{"epsilon", nullptr},
          {"trust", kOpenPrivacy},
          {"note", "asked openly: the answer is sent as given and published exactly; no privacy protection applies "
                   "to it. The randomised answers keep their epsilon whatever the open answers are. Counts of 1 to 4 "
                   "respondents are not shown, nor one more count where it would give a hidden one away."}};
}

}  // namespace deniable
