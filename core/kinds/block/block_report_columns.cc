// BlockQuestionKind's reports as export columns (report_columns.h).
#include <string>
#include <vector>

#include "core/kinds/block/block_question_kind.h"
#include "core/kinds/block/pmoue.h"

namespace deniable {

std::vector<ReportColumn> BlockQuestionKind::Columns() const {
  std::vector<ReportColumn> columns;
  for (const BlockAttribute& attribute : block_.attributes) {
    for (int i = 0; i < attribute.size(); ++i) {
      const std::string option = attribute.options[static_cast<std::size_t>(i)];
      columns.push_back({"." + attribute.id + ".bit_" + std::to_string(i),
                         "attribute '" + attribute.id + "', bit " + std::to_string(i) +
                             ": 1 when the report supports option '" + option + "'; empty: the attribute was not answered",
                         nullptr});
    }
  }
  return columns;
}

std::vector<nlohmann::json> BlockQuestionKind::ColumnValues(const nlohmann::json& wire) const {
  std::vector<nlohmann::json> values;
  auto report = BlockReportFromJson(block_, wire);
  for (std::size_t a = 0; a < block_.attributes.size(); ++a) {
    const auto size = static_cast<std::size_t>(block_.attributes[a].size());
    const bool answered = report && report->bits[a].size() == size;
    for (std::size_t i = 0; i < size; ++i) {
      values.push_back(answered ? nlohmann::json(static_cast<int>(report->bits[a][i])) : nlohmann::json());
    }
  }
  return values;
}

nlohmann::json BlockQuestionKind::Channel() const {
  nlohmann::json attributes = nlohmann::json::array();
  for (const BlockAttribute& attribute : block_.attributes) {
    attributes.push_back({{"id", attribute.id}, {"text", attribute.text}, {"options", attribute.options}});
  }
  nlohmann::json channel = BlockMechanismToJson(block_);
  channel["attributes"] = attributes;
  channel["p"] = 0.5;
  channel["report"] =
      "per answered attribute one bit per option, drawn independently: 1 with probability p = 1/2 for the "
      "answer's bit, q_j = 1 / (e^eps_j + 1) for each other, where eps_j is the share of the budget the respondent "
      "gave the attribute (between share_bounds x epsilon_per_attribute; the shares are not in the report)";
  return channel;
}

}  // namespace deniable
