// A rating grid: items rated on one ordered scale, each row's answer reported
// through the row mechanism (grid_client.h, grid_mechanism.h). The aggregate
// counts, per item and level, the reports of that level; grid_estimator.h
// turns each item's counts into its distribution over the scale and its mean
// position (1..L) with intervals (grid_results.h).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/kinds/grid/grid_client.h"
#include "core/survey/kind_registry.h"
#include "core/survey/question_kind.h"

namespace deniable {

struct Question;

// A decoded report: the reported level of each item.
struct GridResponse final : KindResponse {
  explicit GridResponse(std::vector<int> l) : levels(std::move(l)) {}
  std::vector<int> levels;
};

// n and, per item and possible report (item-major), the reports of it: the
// reported level (grr, ordinal), or the low or high end (duchi).
class GridAggregate final : public KindAggregate {
 public:
  GridAggregate(std::size_t items, std::size_t levels) : levels_(levels), counts_(items * levels, 0) {}
  std::string_view type() const override;
  void Add(const KindResponse& response) override;
  Status Merge(const KindAggregate& other) override;
  std::unique_ptr<KindAggregate> Clone() const override { return std::make_unique<GridAggregate>(*this); }
  nlohmann::json StatisticsToJson() const override;  // grid_aggregate_format.cc
  Status StatisticsFromJson(const nlohmann::json& statistics) override;
  std::int64_t n() const override { return n_; }
  // Item `item`'s counts, one per level.
  std::vector<std::int64_t> ItemCounts(std::size_t item) const;

 private:
  std::int64_t n_ = 0;
  std::size_t levels_;
  std::vector<std::int64_t> counts_;
};

class GridQuestionKind final : public QuestionKind, public GridClient, public ReportColumns {
 public:
  static KindEntry Entry();
  static Result<std::shared_ptr<const QuestionKind>> Parse(const nlohmann::json& question, const std::string& where);

  Result<std::unique_ptr<const KindResponse>> Decode(const nlohmann::json& wire) const override;
  std::unique_ptr<KindAggregate> NewAggregate() const override {
    return std::make_unique<GridAggregate>(items_.size(), static_cast<std::size_t>(row_->outputs()));
  }
  Result<nlohmann::json> Estimate(const KindAggregate& aggregate, const nlohmann::json& options,
                                  const std::function<bool()>& cancelled) const override;
  std::vector<CsvRow> CsvRows(const nlohmann::json& result) const override;
  Result<std::unique_ptr<TruthSampler>> ParseTruth(const nlohmann::json& entry, const std::string& where) const override;
  std::string SimulationText(const nlohmann::json& result) const override;
  std::optional<nlohmann::json> DesignAdvice(std::int64_t respondents) const override;

  // The reports' export: one column per item, the reported level.
  const ReportColumns* report_columns() const override { return this; }
  std::vector<ReportColumn> Columns() const override;
  std::vector<nlohmann::json> ColumnValues(const nlohmann::json& wire) const override;
  nlohmann::json Channel() const override;

 private:
  explicit GridQuestionKind(const GridClient& client) : GridClient(client) {}
};

}  // namespace deniable
