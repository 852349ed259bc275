#include "core/kinds/categorical/categorical_client.h"

#include "core/central/confidential_client.h"
#include "core/common/json_fields.h"
#include "core/common/validation.h"
#include "core/kinds/categorical/categorical_bins.h"
#include "core/kinds/open/open_categorical_client.h"
#include "core/kinds/open/open_privacy.h"
#include "core/survey/question_fields.h"

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

}  // namespace

KindClientEntry CategoricalClient::Entry() { return {kType, &Parse}; }

Result<std::shared_ptr<const KindClient>> CategoricalClient::Parse(const nlohmann::json& object,
                                                                   const std::string& where) {
  DENIABLE_TRY(RejectUnknownQuestionFields(object, {"options", "mechanism", "privacy", "budget", "admin_sees_counts"},
                                           where));
  DENIABLE_ASSIGN_OR_RETURN(auto open, IsOpenQuestion(object, where));
  DENIABLE_ASSIGN_OR_RETURN(auto trust, open ? std::optional<ConfidentialPrivacy>() : ParseTrustFields(object, where));
  DENIABLE_ASSIGN_OR_RETURN(auto options, ParseOptionsField(object, where, kMaxOptions));
  if (open) return OpenCategoricalClient::Create(std::move(options));
  if (trust) return ConfidentialClient::Create(std::make_shared<CategoricalBins>(std::move(options)), *trust);
  if (!object.contains("mechanism")) return MakeError(where + ".mechanism: required field is missing");
  DENIABLE_ASSIGN_OR_RETURN(auto mechanism,
                            ParseMechanism(object.at("mechanism"), static_cast<int>(options.size()), where + ".mechanism"));
  return std::shared_ptr<const KindClient>(new CategoricalClient(std::move(options), std::move(mechanism)));
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

nlohmann::json CategoricalClient::DefinitionToJson() const {
  return {{"type", kType}, {"options", options_}, {"mechanism", MechanismToJson()}};
}

nlohmann::json CategoricalClient::MechanismToJson() const { return deniable::MechanismToJson(*mechanism_); }

nlohmann::json CategoricalClient::PrivacyToJson() const { return deniable::PrivacyToJson(*mechanism_); }

Result<nlohmann::json> CategoricalClient::Perturb(const nlohmann::json& answer, RandomSource& random) const {
  DENIABLE_ASSIGN_OR_RETURN(auto index, ReadAnswerIndex(answer, mechanism_->options()));
  DENIABLE_ASSIGN_OR_RETURN(auto support, mechanism_->Perturb(index, random));
  return mechanism_->Encode(support);
}

nlohmann::json CategoricalClient::PageSummary() const {
  const auto pq = mechanism_->probabilities();
  return {{"p", pq.p}, {"q", pq.q}};
}

}  // namespace deniable
