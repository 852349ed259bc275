// A histogram question (seed 000's CHP, digest sections 3.3-3.5): a number in
// [a, b] that several data consumers want binned at their own widths. The
// consumers' bin boundaries merge into one fine partition (fine_partition.h);
// each respondent sends one unary-encoded report over the fine cells (SUE,
// the paper's basic RAPPOR, or OUE), so one report serves every consumer at
// the question's epsilon even if the consumers collude, and each consumer's
// bins are sums of fine cells (consumer_bins.h).
//
// Definition: {"type": "histogram", "range": [a, b], "unit": ..., "histograms":
// [{"name": ..., "bins": K} | {"name": ..., "edges": [a, ..., b]}, ...],
// "mechanism": {"name": "sue" | "oue" | "tree", "epsilon": e}}.
//
// `tree` (hierarchy.h, tree_design.h): each respondent reports one level of a
// tree over the fine cells, OUE over that level's nodes at epsilon, so any
// range of cells after collection is a few nodes instead of many cells. Its
// wire form is {"level": l, "bits": [...]}; sue and oue send the bits alone.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/frequency/categorical_mechanism.h"
#include "core/kinds/histogram/consumer_requests.h"
#include "core/kinds/histogram/fine_partition.h"
#include "core/kinds/histogram/histogram_channel.h"
#include "core/kinds/histogram/histogram_client.h"
#include "core/kinds/histogram/level_estimates.h"
#include "core/kinds/histogram/tree_design.h"
#include "core/survey/kind_registry.h"
#include "core/survey/question_kind.h"

namespace deniable {

struct Question;

// A decoded report: its level (1 for sue and oue) and that level's nodes whose bit is 1.
struct HistogramResponse final : KindResponse {
  HistogramResponse(int l, Support s) : level(l), bits(std::move(s)) {}
  int level;
  Support bits;
};

// Per level: how many reports chose it and, per node, how many set its bit.
// O(nodes), whatever n.
class HistogramAggregate final : public KindAggregate {
 public:
  explicit HistogramAggregate(const TreeShape& shape);
  // From counts already summed (benchmarks that draw them directly).
  explicit HistogramAggregate(std::vector<LevelCounts> levels);
  std::string_view type() const override;
  void Add(const KindResponse& response) override;
  Status Merge(const KindAggregate& other) override;
  std::unique_ptr<KindAggregate> Clone() const override { return std::make_unique<HistogramAggregate>(*this); }
  nlohmann::json StatisticsToJson() const override;  // histogram_aggregate_format.cc
  Status StatisticsFromJson(const nlohmann::json& statistics) override;
  std::int64_t n() const override { return n_; }
  const std::vector<LevelCounts>& levels() const { return levels_; }

 private:
  std::int64_t n_ = 0;
  std::vector<LevelCounts> levels_;
};

// The client half (range, unit, consumers, partition, tree, per-level
// mechanisms, definition, privacy, Perturb, page summary) is HistogramClient's.
class HistogramQuestionKind final : public QuestionKind, public HistogramClient, public ReportColumns {
 public:
  static KindEntry Entry();
  static Result<std::shared_ptr<const QuestionKind>> Parse(const nlohmann::json& question, const std::string& where);

  LevelEstimates Estimates(const HistogramAggregate& aggregate, IntervalTarget target) const;

  Result<std::unique_ptr<const KindResponse>> Decode(const nlohmann::json& wire) const override;
  std::unique_ptr<KindAggregate> NewAggregate() const override { return std::make_unique<HistogramAggregate>(shape_); }
  Status ValidateEstimateOptions(const nlohmann::json& options) const override;
  Result<nlohmann::json> Estimate(const KindAggregate& aggregate, const nlohmann::json& options,
                                  const std::function<bool()>& cancelled) const override;
  std::vector<CsvRow> CsvRows(const nlohmann::json& result) const override;
  Result<std::unique_ptr<TruthSampler>> ParseTruth(const nlohmann::json& entry, const std::string& where) const override;
  std::string SimulationText(const nlohmann::json& result) const override;
  std::optional<nlohmann::json> DesignAdvice(std::int64_t respondents) const override;
  // Its finest bins (histogram_channel.h); null for a tree without a leaf level.
  const CategoryChannel* category_channel() const override { return channel_.get(); }
  // The reports' export (histogram_report_columns.cc): sue and oue, one 0/1
  // column per fine cell; tree, the reported level and the bits of its nodes.
  const ReportColumns* report_columns() const override { return this; }
  std::vector<ReportColumn> Columns() const override;
  std::vector<nlohmann::json> ColumnValues(const nlohmann::json& wire) const override;
  nlohmann::json Channel() const override;

 private:
  // Only Parse builds one, from a parsed client: an invalid kind cannot exist.
  explicit HistogramQuestionKind(const HistogramClient& client)
      : HistogramClient(client),
        channel_(HistogramChannel::Create(partition_, shape_, tree_, *level_mechanisms_.back())) {}

  std::unique_ptr<const HistogramChannel> channel_;  // after the client's fields it is built from
};

// The histogram kind of a question known to be a histogram question (tests, benches).
const HistogramQuestionKind& HistogramKindOf(const Question& question);

}  // namespace deniable
