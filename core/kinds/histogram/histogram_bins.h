// A histogram question answered in confidence (core/central/): the
// answer, a number in [a, b], is counted in its fine cell (the consumers'
// boundaries merged, fine_partition.h); each consumer's histogram is a view of
// a release as sums of runs of cells. An answer outside the range is refused
// (nothing is randomised here, so nothing is gained by moving it to an end).
#pragma once

#include <string>
#include <vector>

#include "core/central/answer_bins.h"
#include "core/kinds/histogram/consumer_requests.h"
#include "core/kinds/histogram/fine_partition.h"

namespace deniable {

class HistogramBins final : public AnswerBins {
 public:
  HistogramBins(std::string unit, std::vector<ConsumerRequest> consumers, FinePartition partition)
      : unit_(std::move(unit)), consumers_(std::move(consumers)), partition_(std::move(partition)) {}
  std::string_view type() const override { return "histogram"; }
  nlohmann::json DefinitionToJson() const override;
  nlohmann::json PageSummary() const override;
  ReleaseLayout layout() const override;
  std::size_t bins() const override { return static_cast<std::size_t>(partition_.cells()); }
  Result<std::size_t> BinOf(const nlohmann::json& answer) const override;
  nlohmann::json AnswerInBin(std::size_t bin) const override;
  std::optional<NumericAnswers> numeric_answers() const override { return NumericAnswers{partition_.range()}; }

 private:
  std::string unit_;
  std::vector<ConsumerRequest> consumers_;
  FinePartition partition_;
};

}  // namespace deniable
