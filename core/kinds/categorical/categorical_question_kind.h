// A categorical question: options 0..k-1 answered through a categorical
// mechanism (GRR, OUE, SUE or the negative survey, core/frequency/), whose
// reports support a set of options; the aggregate counts, per option, the
// reports that support it, and frequency_estimator.h turns the counts into
// unbiased frequencies with intervals.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/frequency/categorical_mechanism.h"
#include "core/kinds/categorical/categorical_channel.h"
#include "core/kinds/categorical/categorical_client.h"
#include "core/survey/kind_registry.h"
#include "core/survey/question_kind.h"

namespace deniable {

struct Question;

// A decoded report: the options it supports.
struct CategoricalResponse final : KindResponse {
  explicit CategoricalResponse(Support s) : support(std::move(s)) {}
  Support support;
};

// n and, per option, how many reports supported it.
class CategoricalAggregate final : public KindAggregate {
 public:
  explicit CategoricalAggregate(std::size_t options) : support_counts_(options, 0) {}
  CategoricalAggregate(std::int64_t n, std::vector<std::int64_t> support_counts)
      : n_(n), support_counts_(std::move(support_counts)) {}
  std::string_view type() const override;
  void Add(const KindResponse& response) override;
  Status Merge(const KindAggregate& other) override;
  std::unique_ptr<KindAggregate> Clone() const override { return std::make_unique<CategoricalAggregate>(*this); }
  nlohmann::json StatisticsToJson() const override;  // categorical_aggregate_format.cc
  Status StatisticsFromJson(const nlohmann::json& statistics) override;
  std::int64_t n() const override { return n_; }
  const std::vector<std::int64_t>& support_counts() const { return support_counts_; }

 private:
  std::int64_t n_ = 0;
  std::vector<std::int64_t> support_counts_;
};

// The client half (options, mechanism, definition, privacy, Perturb, page
// summary) is CategoricalClient's.
class CategoricalQuestionKind final : public QuestionKind, public CategoricalClient, public ReportColumns {
 public:
  static KindEntry Entry();
  static Result<std::shared_ptr<const QuestionKind>> Parse(const nlohmann::json& question, const std::string& where);

  Result<std::unique_ptr<const KindResponse>> Decode(const nlohmann::json& wire) const override;
  std::unique_ptr<KindAggregate> NewAggregate() const override {
    return std::make_unique<CategoricalAggregate>(options_.size());
  }
  Result<nlohmann::json> Estimate(const KindAggregate& aggregate, const nlohmann::json& options,
                                  const std::function<bool()>& cancelled) const override;
  std::vector<CsvRow> CsvRows(const nlohmann::json& result) const override;
  Result<std::unique_ptr<TruthSampler>> ParseTruth(const nlohmann::json& entry, const std::string& where) const override;
  // A CSV truth's column of option labels or indices (the rows shared with the other questions of the file).
  Result<nlohmann::json> TruthFromTable(const std::vector<std::vector<std::string>>& table, const nlohmann::json& entry,
                                        const std::string& where) const override;
  std::string SimulationText(const nlohmann::json& result) const override;
  const CategoryChannel* category_channel() const override { return &channel_; }

  // The reports' export (categorical_report_columns.h).
  const ReportColumns* report_columns() const override { return this; }
  std::vector<ReportColumn> Columns() const override;
  std::vector<nlohmann::json> ColumnValues(const nlohmann::json& wire) const override;
  nlohmann::json Channel() const override;

 private:
  // Only Parse builds one, from a parsed client: an invalid kind cannot exist.
  explicit CategoricalQuestionKind(const CategoricalClient& client)
      : CategoricalClient(client), channel_(options_, mechanism_) {}

  CategoricalChannel channel_;  // after the client's options and mechanism it is built from
};

// The categorical kind of a question known to be categorical (tests, benches).
const CategoricalQuestionKind& CategoricalKindOf(const Question& question);

}  // namespace deniable
