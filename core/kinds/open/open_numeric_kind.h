// A numeric question asked openly (open_privacy.h): the number is sent as
// given. The aggregate is exact sums and a fine histogram (kOpenValueBins
// equal bins over the range), so it is mergeable and its size does not grow
// with n; quantiles are exact to a bin's width, which the results state.
// Results: the mean (t interval for the population, exact for these
// respondents), the standard deviation, the median and quartiles
// (distribution-free order-statistic intervals for the population; the bin
// holding them for these respondents) and a histogram of 20 bins with exact
// intervals, bins of 1 to 4 respondents not shown. Fewer than five answers in
// all: nothing but n.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/kinds/numeric/answer_step.h"
#include "core/kinds/open/open_numeric_client.h"
#include "core/survey/question_kind.h"

namespace deniable {

inline constexpr std::size_t kOpenValueBins = 1000;

struct OpenValueResponse final : KindResponse {
  explicit OpenValueResponse(double v) : value(v) {}
  double value;
};

class OpenValueAggregate final : public KindAggregate {
 public:
  explicit OpenValueAggregate(NumericRange range) : range_(range), counts_(kOpenValueBins, 0) {}
  std::string_view type() const override { return "open_numeric"; }
  void Add(const KindResponse& response) override;
  Status Merge(const KindAggregate& other) override;
  std::unique_ptr<KindAggregate> Clone() const override { return std::make_unique<OpenValueAggregate>(*this); }
  nlohmann::json StatisticsToJson() const override;  // open_numeric_aggregate_format.cc
  Status StatisticsFromJson(const nlohmann::json& statistics) override;
  std::int64_t n() const override { return n_; }
  double mean() const { return mean_; }
  // The answers' sum of squared deviations from their mean (Welford; Chan et al. to merge).
  double squared_deviations() const { return m2_; }
  const std::vector<std::int64_t>& counts() const { return counts_; }
  double bin_width() const { return (range_.high - range_.low) / static_cast<double>(kOpenValueBins); }

 private:
  NumericRange range_;
  std::int64_t n_ = 0;
  double mean_ = 0.0, m2_ = 0.0;
  std::vector<std::int64_t> counts_;
};

// The client half (definition, privacy, Perturb) is OpenNumericClient's.
class OpenNumericKind final : public QuestionKind, public OpenNumericClient, public ValueChannel, public ReportColumns {
 public:
  static std::shared_ptr<const QuestionKind> Create(const OpenNumericClient& client);

  // --- QuestionKind
  Result<std::unique_ptr<const KindResponse>> Decode(const nlohmann::json& wire) const override;
  std::unique_ptr<KindAggregate> NewAggregate() const override { return std::make_unique<OpenValueAggregate>(range_); }
  Status ValidateEstimateOptions(const nlohmann::json& options) const override;
  Result<nlohmann::json> Estimate(const KindAggregate& aggregate, const nlohmann::json& options,
                                  const std::function<bool()>& cancelled) const override;
  std::vector<CsvRow> CsvRows(const nlohmann::json& result) const override;
  Result<std::unique_ptr<TruthSampler>> ParseTruth(const nlohmann::json& entry, const std::string& where) const override;
  std::string SimulationText(const nlohmann::json& result) const override;
  const ValueChannel* value_channel() const override { return this; }

  // --- ValueChannel: the value itself
  double UnbiasedValue(const KindResponse& response) const override;
  std::optional<double> ExactValue(const KindResponse& response) const override { return UnbiasedValue(response); }

  // --- ReportColumns (open_report_columns.cc): the answer as given
  const ReportColumns* report_columns() const override { return this; }
  std::vector<ReportColumn> Columns() const override;
  std::vector<nlohmann::json> ColumnValues(const nlohmann::json& wire) const override;
  nlohmann::json Channel() const override;

 private:
  explicit OpenNumericKind(const OpenNumericClient& client) : OpenNumericClient(client) {}
};

}  // namespace deniable
