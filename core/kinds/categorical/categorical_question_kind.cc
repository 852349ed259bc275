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

constexpr std::size_t kMaxOptions = 4096;

Result<std::optional<double>> ReadEpsilon(const nlohmann::json& object, const std::string& where) {
  if (!object.contains("epsilon") || object.at("epsilon").is_null()) return std::optional<double>();
  const auto& value = object.at("epsilon");
  if (!value.is_number()) return MakeError(where + ".epsilon: must be a number, but is " + value.dump());
  if (auto status = ValidateEpsilon(value.get<double>()); !status) return InContext(where + ".epsilon", status.error());
  return std::optional<double>(value.get<double>());
}

Result<std::shared_ptr<const CategoricalMechanism>> ParseMechanism(const nlohmann::json& object, int options,
                                                                   const std::string& where) {
  DENIABLE_TRY(RequireObject(object, where));
  DENIABLE_TRY(RejectUnknownFields(object, {"name", "epsilon", "reported_options"}, where));
  DENIABLE_ASSIGN_OR_RETURN(auto name, ReadString(object, "name", 32, true, where));
  auto kind = ParseCategoricalKind(name);
  if (!kind) return InContext(where + ".name", kind.error());
  DENIABLE_ASSIGN_OR_RETURN(auto epsilon, ReadEpsilon(object, where));
  CategoricalParams params{*kind, options, epsilon, 1};
  if (object.contains("reported_options") && *kind != CategoricalKind::kNegativeSurvey) {
    return MakeError(where + ".reported_options: applies only to the negative survey");
  }
  if (object.contains("reported_options")) {
    DENIABLE_ASSIGN_OR_RETURN(auto s,
                              ReadInteger(object, "reported_options", 1, static_cast<long long>(kMaxOptions), where));
    params.reported_options = static_cast<int>(s);
  }
  auto mechanism = CreateCategoricalMechanism(params);
  if (!mechanism) return InContext(where, mechanism.error());
  return std::shared_ptr<const CategoricalMechanism>(std::move(mechanism).value());
}

std::vector<std::string> NoEstimateOptions() { return {}; }

Result<nlohmann::json> NoCanonicalOptions(const nlohmann::json& /*options*/) { return nlohmann::json::object(); }

}  // namespace

KindEntry CategoricalQuestionKind::Entry() { return {kType, &Parse, NoEstimateOptions(), &NoCanonicalOptions}; }

Result<std::shared_ptr<const QuestionKind>> CategoricalQuestionKind::Parse(const nlohmann::json& object,
                                                                           const std::string& where) {
  DENIABLE_TRY(RejectUnknownQuestionFields(object, {"options", "mechanism", "privacy", "budget", "admin_sees_counts"},
                                           where));
  DENIABLE_ASSIGN_OR_RETURN(auto open, IsOpenQuestion(object, where));
  DENIABLE_ASSIGN_OR_RETURN(auto trust, open ? std::optional<ConfidentialPrivacy>() : ParseTrustFields(object, where));
  DENIABLE_ASSIGN_OR_RETURN(auto options, ParseOptionsField(object, where, kMaxOptions));
  if (open) return OpenCategoricalKind::Create(std::move(options));
  if (trust) {
    return ConfidentialQuestionKind::Create(std::make_unique<CategoricalBins>(std::move(options)), *trust);
  }
  if (!object.contains("mechanism")) return MakeError(where + ".mechanism: required field is missing");
  DENIABLE_ASSIGN_OR_RETURN(auto mechanism,
                            ParseMechanism(object.at("mechanism"), static_cast<int>(options.size()), where + ".mechanism"));
  return std::shared_ptr<const QuestionKind>(
      new CategoricalQuestionKind(std::move(options), std::move(mechanism)));
}

nlohmann::json MechanismToJson(const CategoricalMechanism& mechanism) {
  nlohmann::json object = {{"name", CategoricalKindName(mechanism.params().kind)}};
  if (mechanism.epsilon()) object["epsilon"] = *mechanism.epsilon();
  if (mechanism.params().kind == CategoricalKind::kNegativeSurvey) {
    object["reported_options"] = mechanism.params().reported_options;
  }
  return object;
}

nlohmann::json PrivacyToJson(const CategoricalMechanism& mechanism) {
  if (mechanism.epsilon()) return {{"epsilon", *mechanism.epsilon()}};
  return {{"epsilon", nullptr},
          {"note", "no formal epsilon: a reported option is never the respondent's answer, so the report rules "
                   "answers out with certainty (unbounded likelihood ratio)"}};
}

nlohmann::json CategoricalQuestionKind::DefinitionToJson() const {
  return {{"type", kType}, {"options", options_}, {"mechanism", MechanismToJson()}};
}

nlohmann::json CategoricalQuestionKind::MechanismToJson() const { return deniable::MechanismToJson(*mechanism_); }

nlohmann::json CategoricalQuestionKind::PrivacyToJson() const { return deniable::PrivacyToJson(*mechanism_); }

Result<nlohmann::json> CategoricalQuestionKind::Perturb(const nlohmann::json& answer, RandomSource& random) const {
  DENIABLE_ASSIGN_OR_RETURN(auto index, ReadAnswerIndex(answer, mechanism_->options()));
  DENIABLE_ASSIGN_OR_RETURN(auto support, mechanism_->Perturb(index, random));
  return mechanism_->Encode(support);
}

nlohmann::json CategoricalQuestionKind::PageSummary() const {
  const auto pq = mechanism_->probabilities();
  return {{"p", pq.p}, {"q", pq.q}};
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
