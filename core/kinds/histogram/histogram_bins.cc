#include "core/kinds/histogram/histogram_bins.h"

#include <cmath>

#include "core/common/validation.h"

namespace deniable {
namespace {

std::string CellLabel(double low, double high, bool last) {
  return "[" + FormatNumber(low) + ", " + FormatNumber(high) + (last ? "]" : ")");
}

}  // namespace

nlohmann::json HistogramBins::DefinitionToJson() const {
  auto histograms = nlohmann::json::array();
  for (const ConsumerRequest& consumer : consumers_) histograms.push_back(consumer.definition);
  nlohmann::json object = {{"type", "histogram"},
                           {"range", {partition_.range().low, partition_.range().high}},
                           {"histograms", histograms}};
  if (!unit_.empty()) object["unit"] = unit_;
  return object;
}

nlohmann::json HistogramBins::PageSummary() const {
  std::vector<double> edges;
  for (int h = 0; h <= partition_.cells(); ++h) edges.push_back(partition_.BoundaryValue(h));
  return {{"fine_edges", edges}};
}

ReleaseLayout HistogramBins::layout() const {
  ReleaseLayout layout;
  const int cells = partition_.cells();
  for (int h = 0; h < cells; ++h) {
    layout.labels.push_back(CellLabel(partition_.BoundaryValue(h), partition_.BoundaryValue(h + 1), h + 1 == cells));
  }
  for (const ConsumerRequest& consumer : consumers_) {
    const std::vector<int> starts = partition_.BinStarts(consumer.boundaries);
    ReleaseView view{consumer.name, {}};
    for (std::size_t b = 0; b + 1 < starts.size(); ++b) {
      view.bins.push_back({CellLabel(partition_.BoundaryValue(starts[b]), partition_.BoundaryValue(starts[b + 1]),
                                     b + 2 == starts.size()),
                           static_cast<std::size_t>(starts[b]), static_cast<std::size_t>(starts[b + 1])});
    }
    layout.views.push_back(std::move(view));
  }
  return layout;
}

Result<std::size_t> HistogramBins::BinOf(const nlohmann::json& answer) const {
  if (!answer.is_number() || !std::isfinite(answer.get<double>())) {
    return MakeError("must be a number, but is " + answer.dump());
  }
  const double value = answer.get<double>();
  if (value < partition_.range().low || value > partition_.range().high) {
    return MakeError("must be between " + FormatNumber(partition_.range().low) + " and " +
                     FormatNumber(partition_.range().high) + ", but is " + FormatNumber(value));
  }
  return static_cast<std::size_t>(partition_.CellOf(value));
}

nlohmann::json HistogramBins::AnswerInBin(std::size_t bin) const {
  const int h = static_cast<int>(bin);
  return (partition_.BoundaryValue(h) + partition_.BoundaryValue(h + 1)) / 2.0;
}

}  // namespace deniable
