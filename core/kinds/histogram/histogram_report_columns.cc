// HistogramQuestionKind's reports as export columns (report_columns.h).
#include <algorithm>
#include <string>
#include <vector>

#include "core/common/validation.h"
#include "core/kinds/categorical/categorical_report_columns.h"
#include "core/kinds/histogram/histogram_question_kind.h"

namespace deniable {
namespace {

// "[a, b)" for fine cells [first, end), "]" when the range's high end is in it.
std::string CellsLabel(const FinePartition& partition, int first, int end) {
  if (first >= partition.cells()) return "beyond the range (padding: never the answer)";
  end = std::min(end, partition.cells());
  return "[" + FormatNumber(partition.BoundaryValue(first)) + ", " + FormatNumber(partition.BoundaryValue(end)) +
         (end == partition.cells() ? "]" : ")");
}

// The nodes of a level (1..height), each labelled by the range its leaves cover.
std::vector<std::string> NodeLabels(const FinePartition& partition, const TreeShape& shape, int level) {
  std::vector<std::string> labels;
  const int span = shape.SpanOf(level);
  for (int j = 0; j < shape.NodesAt(level); ++j) labels.push_back(CellsLabel(partition, j * span, (j + 1) * span));
  return labels;
}

}  // namespace

std::vector<ReportColumn> HistogramQuestionKind::Columns() const {
  if (!hierarchical()) return SupportColumns(mechanism(), NodeLabels(partition_, shape_, 1));
  std::vector<ReportColumn> columns = {{".level", "the tree level reported (1: the coarsest)", nullptr}};
  for (int j = 0; j < shape_.Leaves(); ++j) {
    columns.push_back({".bit_" + std::to_string(j),
                       "bit " + std::to_string(j) + " of the reported level: 1 when the report supports that level's "
                       "node " + std::to_string(j) + " (the codebook's channel lists each level's nodes); empty "
                       "beyond the level's nodes",
                       nullptr});
  }
  return columns;
}

std::vector<nlohmann::json> HistogramQuestionKind::ColumnValues(const nlohmann::json& wire) const {
  if (!hierarchical()) return SupportColumnValues(mechanism(), wire);
  std::vector<nlohmann::json> values(static_cast<std::size_t>(shape_.Leaves()) + 1, nullptr);
  if (!wire.is_object() || !wire.contains("level") || !wire.at("level").is_number_integer()) return values;
  const auto level = wire.at("level").get<std::int64_t>();
  if (level < 1 || level > shape_.height) return values;
  values[0] = level;
  const auto bits = SupportColumnValues(*level_mechanisms_[static_cast<std::size_t>(level) - 1], wire.value("bits", nlohmann::json()));
  std::copy(bits.begin(), bits.end(), values.begin() + 1);
  return values;
}

nlohmann::json HistogramQuestionKind::Channel() const {
  if (!hierarchical()) {
    nlohmann::json channel = SupportChannel(mechanism(), NodeLabels(partition_, shape_, 1));
    channel["histogram_mechanism"] = MechanismToJson();
    return channel;
  }
  const auto pq = mechanism().probabilities();
  nlohmann::json levels = nlohmann::json::array();
  for (int level = 1; level <= shape_.height; ++level) {
    levels.push_back({{"level", level}, {"nodes", NodeLabels(partition_, shape_, level)}});
  }
  return {{"name", "tree"},
          {"epsilon", epsilon() ? nlohmann::json(*epsilon()) : nlohmann::json()},
          {"p", pq.p},
          {"q", pq.q},
          {"report", "a level drawn by level_weights independently of the answer, then one bit per node of that "
                     "level, drawn independently: 1 with probability p for the node holding the answer, q for "
                     "each other"},
          {"level_weights", tree_->level_weights},
          {"levels", levels},
          {"histogram_mechanism", MechanismToJson()}};
}

}  // namespace deniable
