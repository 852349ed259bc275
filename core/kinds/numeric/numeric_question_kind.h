// A numeric question: an answer in [a, b] (with its unit) perturbed by a
// numeric mechanism (core/numeric/); the aggregate is a fine histogram of the
// reported values (core/distribution/numeric_histogram.h), from which
// numeric_results.h reconstructs the answers' distribution with bands.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/distribution/numeric_histogram.h"
#include "core/kinds/numeric/answer_step.h"
#include "core/kinds/numeric/numeric_advice.h"
#include "core/kinds/numeric/numeric_client.h"
#include "core/kinds/numeric/numeric_value_channel.h"
#include "core/numeric/numeric_mechanism.h"
#include "core/survey/kind_registry.h"
#include "core/survey/question_kind.h"

namespace deniable {

struct Question;

// A decoded report: its values, each one the mechanism can produce.
struct NumericResponse final : KindResponse {
  explicit NumericResponse(std::vector<double> v) : values(std::move(v)) {}
  std::vector<double> values;
};

// n and the fine histogram of the reported values; for mechanisms whose
// reports take finitely many values (report_atoms), the exact count of each.
class NumericAggregate final : public KindAggregate {
 public:
  NumericAggregate(std::int64_t n, NumericHistogram histogram, std::vector<double> atoms = {})
      : n_(n), histogram_(std::move(histogram)), atoms_(std::move(atoms)), atom_counts_(atoms_.size(), 0) {}
  std::string_view type() const override;
  void Add(const KindResponse& response) override;
  Status Merge(const KindAggregate& other) override;
  std::unique_ptr<KindAggregate> Clone() const override { return std::make_unique<NumericAggregate>(*this); }
  nlohmann::json StatisticsToJson() const override;  // numeric_aggregate_format.cc
  Status StatisticsFromJson(const nlohmann::json& statistics) override;
  std::int64_t n() const override { return n_; }
  const NumericHistogram& histogram() const { return histogram_; }
  // Per report value of report_atoms(), in its order; empty for continuous reports.
  const std::vector<std::int64_t>& atom_counts() const { return atom_counts_; }
  // Adds one report's values (benches and tests that skip the wire form);
  // with atoms, each value must be one of them exactly.
  Status AddValues(const std::vector<double>& values);

 private:
  std::int64_t n_ = 0;
  NumericHistogram histogram_;
  std::vector<double> atoms_;
  std::vector<std::int64_t> atom_counts_;
};

// The client half (range, unit, step, mechanism, definition, privacy,
// Perturb, page summary) is NumericClient's.
class NumericQuestionKind final : public QuestionKind, public NumericClient, public ReportColumns {
 public:
  static KindEntry Entry();
  static Result<std::shared_ptr<const QuestionKind>> Parse(const nlohmann::json& question, const std::string& where);

  Result<std::unique_ptr<const KindResponse>> Decode(const nlohmann::json& wire) const override;
  std::unique_ptr<KindAggregate> NewAggregate() const override;
  Status ValidateEstimateOptions(const nlohmann::json& options) const override;
  bool NeedsEstimation(const KindAggregate& aggregate) const override { return aggregate.n() > 0; }
  Result<nlohmann::json> Estimate(const KindAggregate& aggregate, const nlohmann::json& options,
                                  const std::function<bool()>& cancelled) const override;
  std::vector<CsvRow> CsvRows(const nlohmann::json& result) const override;
  Result<std::unique_ptr<TruthSampler>> ParseTruth(const nlohmann::json& entry, const std::string& where) const override;
  std::string SimulationText(const nlohmann::json& result) const override;
  // The reports' export: the reported value(s), one column each.
  const ReportColumns* report_columns() const override { return this; }
  std::vector<ReportColumn> Columns() const override;
  std::vector<nlohmann::json> ColumnValues(const nlohmann::json& wire) const override;
  nlohmann::json Channel() const override;
  // The mean's expected precision under each mechanism at the question's epsilon (numeric_advice.h;
  // levels: its own advice at equal true epsilon).
  std::optional<nlohmann::json> DesignAdvice(std::int64_t respondents) const override {
    return NumericMeanAdvice(*mechanism_, respondents);
  }
  // An unbiased value per report (numeric_value_channel.h); null for RVNS and levels.
  const ValueChannel* value_channel() const override { return value_channel_.get(); }

 private:
  // Only Parse builds one, from a parsed client: an invalid kind cannot exist.
  explicit NumericQuestionKind(const NumericClient& client)
      : NumericClient(client), value_channel_(NumericValueChannel::Create(*mechanism_)) {}

  std::unique_ptr<const NumericValueChannel> value_channel_;  // after the client's mechanism it is built from
};

// The numeric kind of a question known to be numeric (tests, benches).
const NumericQuestionKind& NumericKindOf(const Question& question);

}  // namespace deniable
