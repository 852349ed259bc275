#include "core/kinds/multiple/multiple_client.h"

#include <algorithm>

#include "core/common/json_fields.h"
#include "core/common/validation.h"
#include "core/survey/question_fields.h"

namespace deniable {
namespace {

constexpr std::size_t kMaxOptions = 64;

Result<std::shared_ptr<const SetMechanism>> ParseMechanism(const nlohmann::json& object, int options,
                                                           int max_choices, const std::string& where) {
  DENIABLE_TRY(RequireObject(object, where));
  DENIABLE_TRY(RejectUnknownFields(object, {"name", "epsilon", "padding"}, where));
  DENIABLE_ASSIGN_OR_RETURN(auto name, ReadString(object, "name", 32, true, where));
  auto kind = ParseSetMechanismName(name);
  if (!kind) return InContext(where + ".name", kind.error());
  if (!object.contains("epsilon")) return MakeError(where + ".epsilon: required field is missing");
  DENIABLE_ASSIGN_OR_RETURN(const double epsilon, ReadFiniteNumber(object, "epsilon", where));
  if (auto status = ValidateEpsilon(epsilon); !status) return InContext(where + ".epsilon", status.error());
  SetMechanismParams params{*kind, options, max_choices, epsilon, 0};
  if (object.contains("padding")) {
    if (*kind != SetMechanismKind::kPaddingSampling) {
      return MakeError(where + ".padding: applies only to padding_sampling");
    }
    DENIABLE_ASSIGN_OR_RETURN(auto padding, ReadInteger(object, "padding", 1, static_cast<long long>(kMaxOptions), where));
    params.padding = static_cast<int>(padding);
  }
  auto mechanism = CreateSetMechanism(params);
  if (!mechanism) return InContext(where, mechanism.error());
  return std::move(mechanism).value();
}

}  // namespace

KindClientEntry MultipleClient::Entry() { return {kType, &Parse}; }

Result<std::shared_ptr<const KindClient>> MultipleClient::Parse(const nlohmann::json& object, const std::string& where) {
  DENIABLE_TRY(RejectUnknownQuestionFields(object, {"options", "max_choices", "mechanism"}, where));
  DENIABLE_ASSIGN_OR_RETURN(auto options, ParseOptionsField(object, where, kMaxOptions));
  const auto k = static_cast<long long>(options.size());
  long long max_choices = k;
  if (object.contains("max_choices")) {
    DENIABLE_ASSIGN_OR_RETURN(max_choices, ReadInteger(object, "max_choices", 1, k, where));
  }
  if (!object.contains("mechanism")) return MakeError(where + ".mechanism: required field is missing");
  DENIABLE_ASSIGN_OR_RETURN(auto mechanism, ParseMechanism(object.at("mechanism"), static_cast<int>(k),
                                                           static_cast<int>(max_choices), where + ".mechanism"));
  return std::shared_ptr<const KindClient>(new MultipleClient(std::move(options), std::move(mechanism)));
}

nlohmann::json MultipleClient::DefinitionToJson() const {
  nlohmann::json definition = {{"type", kType}, {"options", options_}};
  if (max_choices() != static_cast<int>(options_.size())) definition["max_choices"] = max_choices();
  definition["mechanism"] = MechanismToJson();
  return definition;
}

nlohmann::json MultipleClient::MechanismToJson() const {
  const auto& params = mechanism_->params();
  nlohmann::json object = {{"name", SetMechanismName(params.kind)}, {"epsilon", params.epsilon}};
  if (!mechanism_->is_bits()) object["padding"] = params.padding;
  return object;
}

std::string SetGuarantee(const SetMechanism& mechanism) {
  const auto& params = mechanism.params();
  const std::string whole = "epsilon " + FormatSignificant(params.epsilon, 3) +
                            " for the whole set: any two answers of at most " + std::to_string(params.max_choices) +
                            " of the " + std::to_string(params.options) +
                            " options give the same report with probabilities within a factor e^epsilon";
  if (params.kind == SetMechanismKind::kSymmetricBits) {
    const int d = std::min(params.options, 2 * params.max_choices);
    return whole + "; each option's bit is randomised on its own at epsilon/" + std::to_string(d) +
           " (two answers differ in at most " + std::to_string(d) + " bits: sequential composition)";
  }
  if (params.kind == SetMechanismKind::kOptimizedBits) {
    return whole + "; each option's bit is randomised on its own (1 with probability 1/2 if chosen, q otherwise), "
                   "q set so that the bits in which two answers can differ compose to exactly epsilon";
  }
  return whole + "; one item of the set padded to " + std::to_string(params.padding) +
         " with dummies is reported by randomized response at the full epsilon (one report, one epsilon)";
}

nlohmann::json MultipleClient::PrivacyToJson() const {
  return {{"epsilon", mechanism_->params().epsilon}, {"guarantee", SetGuarantee(*mechanism_)}};
}

Result<nlohmann::json> MultipleClient::Perturb(const nlohmann::json& answer, RandomSource& random) const {
  DENIABLE_ASSIGN_OR_RETURN(auto set, ReadSetAnswer(answer, static_cast<int>(options_.size()), max_choices()));
  return mechanism_->Encode(mechanism_->Perturb(set, random));
}

nlohmann::json MultipleClient::PageSummary() const {
  const auto pq = mechanism_->raw_probabilities();
  nlohmann::json summary = {{"max_choices", max_choices()}, {"p", pq.p}, {"q", pq.q}};
  if (!mechanism_->is_bits()) summary["padding"] = mechanism_->padding();
  return summary;
}

}  // namespace deniable
