#include "core/central/confidential_question_kind.h"

#include <cmath>
#include <numeric>

#include "core/common/json_fields.h"
#include "core/common/validation.h"
#include "core/central/confidential_simulation.h"
#include "core/central/release_advisor.h"
#include "core/survey/interval_target.h"

namespace deniable {

void ConfidentialAggregate::Add(const KindResponse& response) {
  ++counts_[static_cast<const ConfidentialResponse&>(response).bin];
  ++n_;
}

Status ConfidentialAggregate::Merge(const KindAggregate& other) {
  if (other.type() != type()) return MakeError("a question of another kind");
  const auto& theirs = static_cast<const ConfidentialAggregate&>(other);
  if (theirs.counts_.size() != counts_.size()) return MakeError("a different number of bins");
  for (std::size_t b = 0; b < counts_.size(); ++b) counts_[b] += theirs.counts_[b];
  n_ += theirs.n_;
  return OkStatus();
}

std::shared_ptr<const QuestionKind> ConfidentialQuestionKind::Create(const ConfidentialClient& client) {
  return std::shared_ptr<const QuestionKind>(new ConfidentialQuestionKind(client));
}

Result<std::unique_ptr<const KindResponse>> ConfidentialQuestionKind::Decode(const nlohmann::json& wire) const {
  DENIABLE_ASSIGN_OR_RETURN(auto bin, bins_->BinOf(wire));
  return std::unique_ptr<const KindResponse>(new ConfidentialResponse(bin));
}

Result<nlohmann::json> ConfidentialQuestionKind::Estimate(const KindAggregate& aggregate,
                                                          const nlohmann::json& options,
                                                          const std::function<bool()>& /*cancelled*/) const {
  DENIABLE_ASSIGN_OR_RETURN(auto target, ReadIntervalTarget(options));
  // Nothing from the exact counts: the results of this question are its releases (attached by the survey's
  // results, whose intervals are for the same target).
  return nlohmann::json{{"n", aggregate.n()},
                        {"interval_for", IntervalForJson(target)},
                        {"epsilon", privacy_.budget},
                        {"privacy", PrivacyToJson()},
                        {"mechanism", MechanismToJson()},
                        {"trust", "central"},
                        {"bins", bins_->layout().labels},
                        {"warning", nullptr}};
}

std::vector<CsvRow> ConfidentialQuestionKind::CsvRows(const nlohmann::json& result) const {
  std::vector<CsvRow> rows;
  if (!result.contains("ledger")) return rows;
  for (const auto& release : result.at("ledger").at("releases")) {
    const auto& consistent = release.at("consistent");
    for (std::size_t b = 0; b < release.at("bins").size(); ++b) {
      const auto& bin = release.at("bins")[b];
      CsvRow row;
      // Each release's rows: the bin as the label, the release in columns of its own.
      row.label = bin.at("label").get<std::string>();
      row.release = release.at("id").get<std::string>();
      row.release_method = release.at("method").get<std::string>();
      row.release_epsilon = release.at("epsilon");
      row.measure = "released_count";
      row.estimate = bin.at("value");
      row.ci_low = bin.at("ci_low");
      row.ci_high = bin.at("ci_high");
      row.consistent = consistent[b];
      row.n = release.at("respondents");
      rows.push_back(std::move(row));
    }
  }
  return rows;
}

Result<std::unique_ptr<TruthSampler>> ConfidentialQuestionKind::ParseTruth(const nlohmann::json& entry,
                                                                           const std::string& where) const {
  return ParseConfidentialTruth(*bins_, privacy_.budget, kAnswerChangeSensitivity, entry, where);
}

Result<nlohmann::json> ConfidentialQuestionKind::TruthFromTable(const std::vector<std::vector<std::string>>& table,
                                                                const nlohmann::json& entry, const std::string& where) const {
  return ConfidentialTruthFromTable(*bins_, table, entry, where);
}

std::string ConfidentialQuestionKind::SimulationText(const nlohmann::json& result) const {
  return ConfidentialSimulationText(result);
}

std::optional<nlohmann::json> ConfidentialQuestionKind::DesignAdvice(std::int64_t respondents) const {
  return ReleaseAdvice(bins_->layout(), privacy_.budget, kAnswerChangeSensitivity, respondents);
}

std::vector<std::int64_t> ConfidentialQuestionKind::ExactCounts(const KindAggregate& aggregate) const {
  return static_cast<const ConfidentialAggregate&>(aggregate).counts();
}

}  // namespace deniable
