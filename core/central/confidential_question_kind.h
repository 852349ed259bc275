// A question answered in confidence (the central trust model, seed 001): the
// respondent's answer reaches the server as it is (no randomisation on the
// device), is stored with the report and counted exactly per bin, and is
// served by no endpoint; only differentially private releases of the counts
// (core/central/: SReB_GCA, DP_BASE, AHP), made by the admin and paid from the
// question's budget, are ever published. Its results document holds the
// respondent count and its releases (core/survey/results.cc attaches the
// ledger the server keeps), never the exact counts.
//
// Epsilon here protects what each respondent answered: changing one answer
// moves two counts by one (L1 sensitivity 2), and every release is calibrated
// to that. The number of respondents who answered is published, as for every
// question. The question's epsilon (what a respondent can lose) is its budget.
#pragma once

#include <memory>
#include <vector>

#include "core/central/answer_bins.h"
#include "core/central/confidential_client.h"
#include "core/central/confidential_privacy.h"
#include "core/survey/question_kind.h"

namespace deniable {

// The L1 distance between the counts of two answer sets that differ in one respondent's answer.
inline constexpr std::int64_t kAnswerChangeSensitivity = 2;

struct ConfidentialResponse final : KindResponse {
  explicit ConfidentialResponse(std::size_t b) : bin(b) {}
  std::size_t bin;
};

// The exact count per bin. Never published.
class ConfidentialAggregate final : public KindAggregate {
 public:
  explicit ConfidentialAggregate(std::size_t bins) : counts_(bins, 0) {}
  std::string_view type() const override { return "confidential"; }
  void Add(const KindResponse& response) override;
  Status Merge(const KindAggregate& other) override;
  std::unique_ptr<KindAggregate> Clone() const override { return std::make_unique<ConfidentialAggregate>(*this); }
  nlohmann::json StatisticsToJson() const override;  // confidential_aggregate_format.cc
  Status StatisticsFromJson(const nlohmann::json& statistics) override;
  std::int64_t n() const override { return n_; }
  const std::vector<std::int64_t>& counts() const { return counts_; }

 private:
  std::int64_t n_ = 0;
  std::vector<std::int64_t> counts_;
};

// The client half (definition, privacy, Perturb, page summary) is ConfidentialClient's.
class ConfidentialQuestionKind final : public QuestionKind, public ConfidentialClient, public ConfidentialAnswers {
 public:
  static std::shared_ptr<const QuestionKind> Create(const ConfidentialClient& client);

  // --- QuestionKind
  Result<std::unique_ptr<const KindResponse>> Decode(const nlohmann::json& wire) const override;
  std::unique_ptr<KindAggregate> NewAggregate() const override {
    return std::make_unique<ConfidentialAggregate>(bins_->bins());
  }
  Result<nlohmann::json> Estimate(const KindAggregate& aggregate, const nlohmann::json& options,
                                  const std::function<bool()>& cancelled) const override;
  std::vector<CsvRow> CsvRows(const nlohmann::json& result) const override;
  Result<std::unique_ptr<TruthSampler>> ParseTruth(const nlohmann::json& entry, const std::string& where) const override;
  Result<nlohmann::json> TruthFromTable(const std::vector<std::vector<std::string>>& table, const nlohmann::json& entry,
                                        const std::string& where) const override;
  std::string SimulationText(const nlohmann::json& result) const override;
  const ConfidentialAnswers* confidential() const override { return this; }
  // Which release method serves which data consumer (release_advisor.h).
  std::optional<nlohmann::json> DesignAdvice(std::int64_t respondents) const override;

  // --- ConfidentialAnswers
  double budget() const override { return privacy_.budget; }
  bool admin_sees_counts() const override { return privacy_.admin_sees_counts; }
  ReleaseLayout layout() const override { return bins_->layout(); }
  std::int64_t sensitivity() const override { return kAnswerChangeSensitivity; }
  std::vector<std::int64_t> ExactCounts(const KindAggregate& aggregate) const override;

 private:
  explicit ConfidentialQuestionKind(const ConfidentialClient& client) : ConfidentialClient(client) {}
};

}  // namespace deniable
