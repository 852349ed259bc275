#include "core/kinds/multiple/multiple_question_kind.h"

#include <cassert>

#include "core/kinds/categorical/categorical_report_columns.h"
#include "core/kinds/multiple/multiple_advice.h"
#include "core/kinds/multiple/multiple_results.h"
#include "core/kinds/multiple/multiple_truth.h"
#include "core/survey/survey.h"

namespace deniable {
namespace {

std::vector<std::string> NoEstimateOptions() { return {}; }

Result<nlohmann::json> NoCanonicalOptions(const nlohmann::json& /*options*/) { return nlohmann::json::object(); }

}  // namespace

KindEntry MultipleQuestionKind::Entry() { return {kType, &Parse, NoEstimateOptions(), &NoCanonicalOptions}; }

Result<std::shared_ptr<const QuestionKind>> MultipleQuestionKind::Parse(const nlohmann::json& object,
                                                                        const std::string& where) {
  DENIABLE_ASSIGN_OR_RETURN(auto client, MultipleClient::Parse(object, where));
  return std::shared_ptr<const QuestionKind>(new MultipleQuestionKind(dynamic_cast<const MultipleClient&>(*client)));
}

Result<std::unique_ptr<const KindResponse>> MultipleQuestionKind::Decode(const nlohmann::json& wire) const {
  DENIABLE_ASSIGN_OR_RETURN(auto support, mechanism_->Decode(wire));
  return std::unique_ptr<const KindResponse>(std::make_unique<MultipleResponse>(std::move(support)));
}

Result<nlohmann::json> MultipleQuestionKind::Estimate(const KindAggregate& aggregate, const nlohmann::json& options,
                                                      const std::function<bool()>& /*cancelled*/) const {
  DENIABLE_ASSIGN_OR_RETURN(auto target, ReadIntervalTarget(options));
  return MultipleResultToJson(*this, static_cast<const MultipleAggregate&>(aggregate), target);
}

std::vector<CsvRow> MultipleQuestionKind::CsvRows(const nlohmann::json& result) const {
  return MultipleCsvRows(result);
}

Result<std::unique_ptr<TruthSampler>> MultipleQuestionKind::ParseTruth(const nlohmann::json& entry,
                                                                       const std::string& where) const {
  return ParseMultipleTruth(*this, entry, where);
}

std::string MultipleQuestionKind::SimulationText(const nlohmann::json& result) const {
  return MultipleSimulationText(result);
}

std::optional<nlohmann::json> MultipleQuestionKind::DesignAdvice(std::int64_t respondents) const {
  const auto& params = mechanism_->params();
  return SetAdviceToJson(AdviseSet(params.options, params.max_choices, params.epsilon, respondents));
}

std::vector<std::string> MultipleQuestionKind::OutputLabels() const {
  std::vector<std::string> labels = options_;
  for (int j = 1; j <= mechanism_->padding(); ++j) labels.push_back("(dummy " + std::to_string(j) + ")");
  return labels;
}

std::vector<ReportColumn> MultipleQuestionKind::Columns() const { return SupportColumns(mechanism_->wire(), OutputLabels()); }

std::vector<nlohmann::json> MultipleQuestionKind::ColumnValues(const nlohmann::json& wire) const {
  return SupportColumnValues(mechanism_->wire(), wire);
}

nlohmann::json MultipleQuestionKind::Channel() const {
  const auto raw = mechanism_->raw_probabilities(), effective = mechanism_->probabilities();
  nlohmann::json channel = MechanismToJson();
  channel["max_choices"] = max_choices();
  channel["p"] = raw.p;
  channel["q"] = raw.q;
  channel["labels"] = OutputLabels();
  if (mechanism_->is_bits()) {
    channel["meaning"] = "bit i is 1 with probability p when option i was chosen and q when it was not, independently";
  } else {
    channel["p_effective"] = effective.p;
    channel["meaning"] = "the set padded to `padding` items with dummies 1.. (a set of s options gets dummies 1..padding-s), "
                         "one item drawn uniformly (from the set itself if larger), reported by grr over the options "
                         "and dummies: the item with probability p, each other value with q";
  }
  return channel;
}

std::string_view MultipleAggregate::type() const { return MultipleQuestionKind::kType; }

void MultipleAggregate::Add(const KindResponse& response) {
  const Support& support = static_cast<const MultipleResponse&>(response).support;
  ++n_;
  std::size_t ones = 0;
  for (std::size_t i = 0; i < support.size(); ++i) {
    support_counts_[i] += support[i];
    ones += support[i];
  }
  if (!reported_ones_.empty()) ++reported_ones_[ones];
}

Status MultipleAggregate::Merge(const KindAggregate& other) {
  if (other.type() != type()) return MakeError("a question of another kind");
  const auto& theirs = static_cast<const MultipleAggregate&>(other);
  if (theirs.support_counts_.size() != support_counts_.size() || theirs.reported_ones_.size() != reported_ones_.size()) {
    return MakeError("a different number of options or another mechanism");
  }
  n_ += theirs.n_;
  for (std::size_t i = 0; i < support_counts_.size(); ++i) support_counts_[i] += theirs.support_counts_[i];
  for (std::size_t i = 0; i < reported_ones_.size(); ++i) reported_ones_[i] += theirs.reported_ones_[i];
  return OkStatus();
}

const MultipleQuestionKind& MultipleKindOf(const Question& question) {
  assert(question.kind->type() == MultipleQuestionKind::kType);
  return static_cast<const MultipleQuestionKind&>(*question.kind);
}

}  // namespace deniable
