#include "core/kinds/histogram/histogram_channel.h"

#include "core/common/validation.h"
#include "core/kinds/histogram/histogram_question_kind.h"

namespace deniable {

std::unique_ptr<HistogramChannel> HistogramChannel::Create(const FinePartition& partition, const TreeShape& shape,
                                                           const std::optional<TreeDesign>& tree,
                                                           const CategoricalMechanism& encoding) {
  const double leaf_weight = tree ? tree->level_weights.back() : 1.0;
  if (!(leaf_weight > 0.0)) return nullptr;
  std::vector<std::string> labels;
  const int cells = partition.cells();
  for (int h = 0; h < cells; ++h) {
    labels.push_back("[" + FormatNumber(partition.BoundaryValue(h)) + ", " + FormatNumber(partition.BoundaryValue(h + 1)) +
                     (h + 1 == cells ? "]" : ")"));
  }
  return std::unique_ptr<HistogramChannel>(new HistogramChannel(std::move(labels), shape, leaf_weight,
                                                                encoding.probabilities(), SupportLikelihoodOf(encoding)));
}

std::vector<double> HistogramChannel::Likelihood(const KindResponse& response) const {
  const auto& report = static_cast<const HistogramResponse&>(response);
  const int span = shape_.SpanOf(report.level);
  std::vector<double> likelihood(labels_.size());
  for (std::size_t c = 0; c < likelihood.size(); ++c) {
    likelihood[c] = report.bits[c / static_cast<std::size_t>(span)] ? weights_.supported : weights_.unsupported;
  }
  return likelihood;
}

std::vector<double> HistogramChannel::UnbiasedIndicators(const KindResponse& response) const {
  const auto& report = static_cast<const HistogramResponse&>(response);
  std::vector<double> indicators(labels_.size(), 0.0);
  if (report.level != shape_.height) return indicators;
  for (std::size_t c = 0; c < indicators.size(); ++c) {
    indicators[c] = (report.bits[c] - pq_.q) / (pq_.p - pq_.q) / leaf_weight_;
  }
  return indicators;
}

}  // namespace deniable
