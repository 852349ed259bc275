// A categorical question asked openly (open_privacy.h): the option index is
// sent as given and counted exactly. Results have the categorical results
// shape (README "Categorical results entry") with exact frequencies: for the
// population an exact (Clopper-Pearson) interval (sampling alone varies), for these respondents
// no uncertainty; options chosen by 1 to 4 respondents are not shown.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/kinds/categorical/categorical_bins.h"
#include "core/kinds/open/open_categorical_client.h"
#include "core/survey/question_kind.h"

namespace deniable {

struct OpenCategoryResponse final : KindResponse {
  explicit OpenCategoryResponse(std::size_t c) : category(c) {}
  std::size_t category;
};

class OpenCategoryAggregate final : public KindAggregate {
 public:
  explicit OpenCategoryAggregate(std::size_t categories) : counts_(categories, 0) {}
  std::string_view type() const override { return "open_categorical"; }
  void Add(const KindResponse& response) override;
  Status Merge(const KindAggregate& other) override;
  std::unique_ptr<KindAggregate> Clone() const override { return std::make_unique<OpenCategoryAggregate>(*this); }
  nlohmann::json StatisticsToJson() const override;  // open_categorical_aggregate_format.cc
  Status StatisticsFromJson(const nlohmann::json& statistics) override;
  std::int64_t n() const override { return n_; }
  const std::vector<std::int64_t>& counts() const { return counts_; }

 private:
  std::int64_t n_ = 0;
  std::vector<std::int64_t> counts_;
};

// The client half (definition, privacy, Perturb) is OpenCategoricalClient's.
class OpenCategoricalKind final : public QuestionKind,
                                  public OpenCategoricalClient,
                                  public CategoryChannel,
                                  public ReportColumns {
 public:
  static std::shared_ptr<const QuestionKind> Create(const OpenCategoricalClient& client);

  // --- QuestionKind
  Result<std::unique_ptr<const KindResponse>> Decode(const nlohmann::json& wire) const override;
  std::unique_ptr<KindAggregate> NewAggregate() const override {
    return std::make_unique<OpenCategoryAggregate>(options_.size());
  }
  Status ValidateEstimateOptions(const nlohmann::json& options) const override;
  Result<nlohmann::json> Estimate(const KindAggregate& aggregate, const nlohmann::json& options,
                                  const std::function<bool()>& cancelled) const override;
  std::vector<CsvRow> CsvRows(const nlohmann::json& result) const override;
  Result<std::unique_ptr<TruthSampler>> ParseTruth(const nlohmann::json& entry, const std::string& where) const override;
  Result<nlohmann::json> TruthFromTable(const std::vector<std::vector<std::string>>& table, const nlohmann::json& entry,
                                        const std::string& where) const override;
  std::string SimulationText(const nlohmann::json& result) const override;
  const CategoryChannel* category_channel() const override { return this; }

  // --- CategoryChannel: the identity channel
  std::size_t categories() const override { return options_.size(); }
  std::vector<std::string> category_labels() const override { return options_; }
  std::vector<double> Likelihood(const KindResponse& response) const override;
  std::vector<double> UnbiasedIndicators(const KindResponse& response) const override { return Likelihood(response); }
  std::optional<std::size_t> ExactCategory(const KindResponse& response) const override;

  // --- ReportColumns (open_report_columns.cc): the answer as given
  const ReportColumns* report_columns() const override { return this; }
  std::vector<ReportColumn> Columns() const override;
  std::vector<nlohmann::json> ColumnValues(const nlohmann::json& wire) const override;
  nlohmann::json Channel() const override;

 private:
  explicit OpenCategoricalKind(const OpenCategoricalClient& client) : OpenCategoricalClient(client) {}
};

}  // namespace deniable
