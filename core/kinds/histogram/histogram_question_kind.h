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
// "mechanism": {"name": "sue" | "oue", "epsilon": e}}.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/frequency/categorical_mechanism.h"
#include "core/kinds/histogram/consumer_requests.h"
#include "core/kinds/histogram/fine_partition.h"
#include "core/survey/kind_registry.h"
#include "core/survey/question_kind.h"

namespace deniable {

struct Question;

// A decoded report: the fine cells whose bit is 1.
struct HistogramResponse final : KindResponse {
  explicit HistogramResponse(Support s) : bits(std::move(s)) {}
  Support bits;
};

// n and, per fine cell, how many reports set its bit: O(cells), whatever n.
class HistogramAggregate final : public KindAggregate {
 public:
  explicit HistogramAggregate(std::size_t cells) : bit_counts_(cells, 0) {}
  HistogramAggregate(std::int64_t n, std::vector<std::int64_t> bit_counts)
      : n_(n), bit_counts_(std::move(bit_counts)) {}
  std::string_view type() const override;
  void Add(const KindResponse& response) override;
  Status Merge(const KindAggregate& other) override;
  std::unique_ptr<KindAggregate> Clone() const override { return std::make_unique<HistogramAggregate>(*this); }
  std::int64_t n() const override { return n_; }
  const std::vector<std::int64_t>& bit_counts() const { return bit_counts_; }

 private:
  std::int64_t n_ = 0;
  std::vector<std::int64_t> bit_counts_;
};

class HistogramQuestionKind final : public QuestionKind {
 public:
  static constexpr const char* kType = "histogram";
  static KindEntry Entry();
  static Result<std::shared_ptr<const QuestionKind>> Parse(const nlohmann::json& question, const std::string& where);

  NumericRange range() const { return partition_.range(); }
  const std::string& unit() const { return unit_; }
  const std::vector<ConsumerRequest>& consumers() const { return consumers_; }
  const FinePartition& partition() const { return partition_; }
  const CategoricalMechanism& mechanism() const { return *mechanism_; }

  std::string_view type() const override { return kType; }
  nlohmann::json DefinitionToJson() const override;
  nlohmann::json MechanismToJson() const override;
  std::optional<double> epsilon() const override { return mechanism_->epsilon(); }
  nlohmann::json PrivacyToJson() const override;
  Result<nlohmann::json> Perturb(const nlohmann::json& answer, RandomSource& random) const override;
  nlohmann::json PageSummary() const override;
  Result<std::unique_ptr<const KindResponse>> Decode(const nlohmann::json& wire) const override;
  std::unique_ptr<KindAggregate> NewAggregate() const override {
    return std::make_unique<HistogramAggregate>(static_cast<std::size_t>(partition_.cells()));
  }
  Status ValidateEstimateOptions(const nlohmann::json& options) const override;
  bool NeedsEstimation(const KindAggregate& /*aggregate*/) const override { return false; }
  Result<nlohmann::json> Estimate(const KindAggregate& aggregate, const nlohmann::json& options,
                                  const std::function<bool()>& cancelled) const override;
  std::vector<CsvRow> CsvRows(const nlohmann::json& result) const override;
  Result<std::unique_ptr<TruthSampler>> ParseTruth(const nlohmann::json& entry, const std::string& where) const override;
  std::string SimulationText(const nlohmann::json& result) const override;
  std::optional<NumericAnswers> numeric_answers() const override { return NumericAnswers{range()}; }
  std::optional<nlohmann::json> DesignAdvice(std::int64_t respondents) const override;

 private:
  HistogramQuestionKind(std::string unit, std::vector<ConsumerRequest> consumers, FinePartition partition,
                        std::shared_ptr<const CategoricalMechanism> mechanism)
      : unit_(std::move(unit)),
        consumers_(std::move(consumers)),
        partition_(std::move(partition)),
        mechanism_(std::move(mechanism)) {}

  std::string unit_;
  std::vector<ConsumerRequest> consumers_;
  FinePartition partition_;
  std::shared_ptr<const CategoricalMechanism> mechanism_;
};

// The histogram kind of a question known to be a histogram question (tests, benches).
const HistogramQuestionKind& HistogramKindOf(const Question& question);

}  // namespace deniable
