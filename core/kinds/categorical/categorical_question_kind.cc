#include "core/kinds/categorical/categorical_question_kind.h"

#include <cassert>
#include <cstdint>

#include "core/common/json_fields.h"
#include "core/kinds/categorical/categorical_bins.h"
#include "core/kinds/categorical/categorical_report_columns.h"
#include "core/central/confidential_question_kind.h"
#include "core/central/confidential_simulation.h"
#include "core/kinds/open/open_categorical_kind.h"
#include "core/kinds/open/open_privacy.h"
#include "core/common/validation.h"
#include "core/kinds/categorical/categorical_results.h"
#include "core/kinds/categorical/categorical_truth.h"
#include "core/survey/question_fields.h"
#include "core/survey/survey.h"

namespace deniable {
namespace {

std::vector<std::string> NoEstimateOptions() { return {}; }

Result<nlohmann::json> NoCanonicalOptions(const nlohmann::json& /*options*/) { return nlohmann::json::object(); }

}  // namespace

KindEntry CategoricalQuestionKind::Entry() { return {kType, &Parse, NoEstimateOptions(), &NoCanonicalOptions}; }

// The client's parse decides the variant (open, confidential or local); the
// full kind is built from the client it gives.
Result<std::shared_ptr<const QuestionKind>> CategoricalQuestionKind::Parse(const nlohmann::json& object,
                                                                           const std::string& where) {
  DENIABLE_ASSIGN_OR_RETURN(auto client, CategoricalClient::Parse(object, where));
  if (const auto* open = dynamic_cast<const OpenCategoricalClient*>(client.get())) {
    return OpenCategoricalKind::Create(*open);
  }
  if (const auto* confidential = dynamic_cast<const ConfidentialClient*>(client.get())) {
    return ConfidentialQuestionKind::Create(*confidential);
  }
  return std::shared_ptr<const QuestionKind>(
      new CategoricalQuestionKind(dynamic_cast<const CategoricalClient&>(*client)));
}

Result<std::unique_ptr<const KindResponse>> CategoricalQuestionKind::Decode(const nlohmann::json& wire) const {
  DENIABLE_ASSIGN_OR_RETURN(auto support, mechanism_->Decode(wire));
  return std::unique_ptr<const KindResponse>(std::make_unique<CategoricalResponse>(std::move(support)));
}

Result<nlohmann::json> CategoricalQuestionKind::Estimate(const KindAggregate& aggregate,
                                                         const nlohmann::json& options,
                                                         const std::function<bool()>& /*cancelled*/) const {
  DENIABLE_ASSIGN_OR_RETURN(auto target, ReadIntervalTarget(options));
  return CategoricalResultToJson(*this, static_cast<const CategoricalAggregate&>(aggregate), target);
}

std::vector<CsvRow> CategoricalQuestionKind::CsvRows(const nlohmann::json& result) const {
  return CategoricalCsvRows(result);
}

Result<std::unique_ptr<TruthSampler>> CategoricalQuestionKind::ParseTruth(const nlohmann::json& entry,
                                                                          const std::string& where) const {
  return ParseCategoricalTruth(*this, entry, where);
}

Result<nlohmann::json> CategoricalQuestionKind::TruthFromTable(const std::vector<std::vector<std::string>>& table,
                                                               const nlohmann::json& entry,
                                                               const std::string& where) const {
  return ConfidentialTruthFromTable(CategoricalBins(options_), table, entry, where);
}

std::string CategoricalQuestionKind::SimulationText(const nlohmann::json& result) const {
  return CategoricalSimulationText(result);
}

std::string_view CategoricalAggregate::type() const { return CategoricalQuestionKind::kType; }

void CategoricalAggregate::Add(const KindResponse& response) {
  const Support& support = static_cast<const CategoricalResponse&>(response).support;
  ++n_;
  for (std::size_t i = 0; i < support.size(); ++i) support_counts_[i] += support[i];
}

Status CategoricalAggregate::Merge(const KindAggregate& other) {
  if (other.type() != type()) return MakeError("a question of another kind");
  const auto& theirs = static_cast<const CategoricalAggregate&>(other);
  if (theirs.support_counts_.size() != support_counts_.size()) return MakeError("a different number of options");
  n_ += theirs.n_;
  for (std::size_t i = 0; i < support_counts_.size(); ++i) support_counts_[i] += theirs.support_counts_[i];
  return OkStatus();
}

const CategoricalQuestionKind& CategoricalKindOf(const Question& question) {
  assert(question.kind->type() == CategoricalQuestionKind::kType);
  return static_cast<const CategoricalQuestionKind&>(*question.kind);
}

}  // namespace deniable

namespace deniable {

std::vector<ReportColumn> CategoricalQuestionKind::Columns() const { return SupportColumns(*mechanism_, options_); }

std::vector<nlohmann::json> CategoricalQuestionKind::ColumnValues(const nlohmann::json& wire) const {
  return SupportColumnValues(*mechanism_, wire);
}

nlohmann::json CategoricalQuestionKind::Channel() const { return SupportChannel(*mechanism_, options_); }

}  // namespace deniable
