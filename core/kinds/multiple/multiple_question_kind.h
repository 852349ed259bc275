// A "choose all that apply" question (multiple_client.h): the answer is a set
// of options, randomised as a set on the device (set_mechanism.h). The
// aggregate counts, per output value, the reports that support it and, for
// the per-option bits, the reports by their number of 1s; multiple_results.h
// turns them into each option's share with intervals and the distribution of
// the number chosen.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/kinds/multiple/multiple_client.h"
#include "core/survey/kind_registry.h"
#include "core/survey/question_kind.h"

namespace deniable {

struct Question;

// A decoded report: the output values it supports (the bits, or the one reported value).
struct MultipleResponse final : KindResponse {
  explicit MultipleResponse(Support s) : support(std::move(s)) {}
  Support support;
};

// n; per output value, how many reports supported it; for the bits, how many
// reports had r = 0..k ones (empty for padding_sampling, whose reports name one value).
class MultipleAggregate final : public KindAggregate {
 public:
  MultipleAggregate(std::size_t outputs, bool count_ones)
      : support_counts_(outputs, 0), reported_ones_(count_ones ? outputs + 1 : 0, 0) {}
  std::string_view type() const override;
  void Add(const KindResponse& response) override;
  Status Merge(const KindAggregate& other) override;
  std::unique_ptr<KindAggregate> Clone() const override { return std::make_unique<MultipleAggregate>(*this); }
  nlohmann::json StatisticsToJson() const override;  // multiple_aggregate_format.cc
  Status StatisticsFromJson(const nlohmann::json& statistics) override;
  std::int64_t n() const override { return n_; }
  const std::vector<std::int64_t>& support_counts() const { return support_counts_; }
  const std::vector<std::int64_t>& reported_ones() const { return reported_ones_; }

 private:
  std::int64_t n_ = 0;
  std::vector<std::int64_t> support_counts_;
  std::vector<std::int64_t> reported_ones_;
};

class MultipleQuestionKind final : public QuestionKind, public MultipleClient, public ReportColumns {
 public:
  static KindEntry Entry();
  static Result<std::shared_ptr<const QuestionKind>> Parse(const nlohmann::json& question, const std::string& where);

  Result<std::unique_ptr<const KindResponse>> Decode(const nlohmann::json& wire) const override;
  std::unique_ptr<KindAggregate> NewAggregate() const override {
    return std::make_unique<MultipleAggregate>(static_cast<std::size_t>(mechanism_->outputs()), mechanism_->is_bits());
  }
  Result<nlohmann::json> Estimate(const KindAggregate& aggregate, const nlohmann::json& options,
                                  const std::function<bool()>& cancelled) const override;
  std::vector<CsvRow> CsvRows(const nlohmann::json& result) const override;
  Result<std::unique_ptr<TruthSampler>> ParseTruth(const nlohmann::json& entry, const std::string& where) const override;
  std::string SimulationText(const nlohmann::json& result) const override;
  // The advisor's comparison of the set mechanisms at this k, m and epsilon (multiple_advice.h).
  std::optional<nlohmann::json> DesignAdvice(std::int64_t respondents) const override;

  // The reports' export: the bits (one 0/1 column per option) or the reported value (options, then dummies).
  const ReportColumns* report_columns() const override { return this; }
  std::vector<ReportColumn> Columns() const override;
  std::vector<nlohmann::json> ColumnValues(const nlohmann::json& wire) const override;
  nlohmann::json Channel() const override;

  // The labels of the output values: the options, then the dummies "(dummy 1)" ...
  std::vector<std::string> OutputLabels() const;

 private:
  explicit MultipleQuestionKind(const MultipleClient& client) : MultipleClient(client) {}
};

// The multiple kind of a question known to be one (tests, benches).
const MultipleQuestionKind& MultipleKindOf(const Question& question);

}  // namespace deniable
