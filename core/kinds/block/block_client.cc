#include "core/kinds/block/block_client.h"

#include <cmath>

#include "core/common/validation.h"
#include "core/kinds/block/pmoue.h"
#include "core/survey/question_fields.h"

namespace deniable {
namespace {

// The option index of one answer, or -1 when it is absent or null.
Result<int> ReadAnswer(const nlohmann::json& answers, const BlockAttribute& attribute) {
  if (!answers.contains(attribute.id) || answers.at(attribute.id).is_null()) return -1;
  const auto& value = answers.at(attribute.id);
  const auto size = static_cast<std::int64_t>(attribute.options.size());
  const bool valid = value.is_number_integer() &&
                     (value.is_number_unsigned() ? value.get<std::uint64_t>() < static_cast<std::uint64_t>(size)
                                                 : value.get<std::int64_t>() >= 0 && value.get<std::int64_t>() < size);
  if (!valid) {
    return MakeError("answers." + attribute.id + ": must be an option index from 0 to " + std::to_string(size - 1) +
                     ", but is " + value.dump());
  }
  return static_cast<int>(value.get<std::int64_t>());
}

}  // namespace

KindClientEntry BlockClient::Entry() { return {kType, &Parse}; }

Result<std::shared_ptr<const KindClient>> BlockClient::Parse(const nlohmann::json& question,
                                                             const std::string& where) {
  DENIABLE_TRY(RejectUnknownQuestionFields(question, {"attributes", "mechanism", "joint_order"}, where));
  DENIABLE_ASSIGN_OR_RETURN(auto block, ParseBlockDefinition(question, where));
  return std::shared_ptr<const KindClient>(new BlockClient(std::move(block)));
}

nlohmann::json BlockClient::DefinitionToJson() const {
  return {{"type", kType},
          {"attributes", BlockAttributesToJson(block_)},
          {"mechanism", MechanismToJson()},
          {"joint_order", block_.joint_order}};
}

nlohmann::json BlockClient::MechanismToJson() const { return BlockMechanismToJson(block_); }

std::optional<double> BlockClient::epsilon() const {
  return block_.epsilon_per_attribute * block_.attribute_count();
}

nlohmann::json BlockClient::PrivacyToJson() const {
  const double e = block_.epsilon_per_attribute;
  return {{"epsilon", *epsilon()},
          {"model", "personalised LDP"},
          {"epsilon_per_attribute", e},
          {"share_range", {block_.bounds.low * e, block_.bounds.high * e}},
          {"note", "a respondent who answers m of the " + std::to_string(block_.attribute_count()) +
                       " attributes is (m x " + FormatNumber(e) +
                       ")-LDP for the block; each answered attribute's report is e_j-LDP about that answer, e_j the "
                       "share the respondent chose (from " + FormatNumber(block_.bounds.low * e) + " to " +
                       FormatNumber(block_.bounds.high * e) +
                       "), because the split is made from their choices and never from their answers. The server "
                       "sees which attributes were answered, and an attribute's number of 1 bits hints at its share. "
                       "The paper's claim that the block is (m x min e_j)-LDP (its Theorem 3) is false: changing "
                       "every answer can change the report's probability by e^(sum e_j)."}};
}

Result<BlockChoices> BlockClient::ChoicesOf(const nlohmann::json& answered,
                                            const nlohmann::json& sensitivity) const {
  BlockChoices choices;
  choices.answered.assign(block_.attributes.size(), false);
  if (!answered.is_array()) return MakeError("answered: must be an array of attribute ids");
  for (const auto& id : answered) {
    const int a = id.is_string() ? block_.IndexOf(id.get<std::string>()) : -1;
    if (a < 0) return MakeError("answered: no attribute " + id.dump() + " in this block");
    choices.answered[static_cast<std::size_t>(a)] = true;
  }
  DENIABLE_ASSIGN_OR_RETURN(auto weights, ParseSensitivities(block_, sensitivity));
  choices.weight = std::move(weights);
  return choices;
}

Result<nlohmann::json> BlockClient::Perturb(const nlohmann::json& answer, RandomSource& random) const {
  if (!answer.is_object() || !answer.contains("answers") || !answer.at("answers").is_object()) {
    return MakeError("a block's answer must be {\"answers\": {attribute id: option index, ...}, \"sensitivity\": {...}}");
  }
  for (const auto& item : answer.items()) {
    if (item.key() != "answers" && item.key() != "sensitivity") return MakeError(item.key() + ": unknown field");
  }
  const auto& answers = answer.at("answers");
  for (const auto& item : answers.items()) {
    if (block_.IndexOf(item.key()) < 0) return MakeError("answers." + item.key() + ": no such attribute");
  }
  std::vector<int> values;
  auto answered = nlohmann::json::array();
  for (const auto& attribute : block_.attributes) {
    DENIABLE_ASSIGN_OR_RETURN(auto value, ReadAnswer(answers, attribute));
    values.push_back(value);
    if (value >= 0) answered.push_back(attribute.id);
  }
  if (answered.empty()) return MakeError("at least one attribute must be answered");
  // The split sees the answered set and the sensitivities only.
  DENIABLE_ASSIGN_OR_RETURN(auto choices,
                            ChoicesOf(answered, answer.contains("sensitivity") ? answer.at("sensitivity") : nlohmann::json()));
  const std::vector<double> shares = SplitBudget(block_, choices);
  return BlockReportToJson(block_, PerturbBlock(block_, values, shares, random));
}

nlohmann::json BlockClient::PageSummary() const {
  return {{"p", 0.5},
          {"epsilon_per_attribute", block_.epsilon_per_attribute},
          {"share_range", {block_.bounds.low * block_.epsilon_per_attribute, block_.bounds.high * block_.epsilon_per_attribute}},
          {"sensitivities", {{"more_private", SensitivityWeight(Sensitivity::kMorePrivate)},
                             {"usual", SensitivityWeight(Sensitivity::kUsual)},
                             {"less_private", SensitivityWeight(Sensitivity::kLessPrivate)}}}};
}

Result<nlohmann::json> BlockClient::PrivacyOfChoices(const nlohmann::json& choices) const {
  if (!choices.is_object() || !choices.contains("answered")) {
    return MakeError("choices must be {\"answered\": [attribute id, ...], \"sensitivity\": {...}}");
  }
  DENIABLE_ASSIGN_OR_RETURN(auto parsed,
                            ChoicesOf(choices.at("answered"), choices.contains("sensitivity") ? choices.at("sensitivity") : nlohmann::json()));
  nlohmann::json privacy = ChoicesPrivacyToJson(block_, parsed);
  // In plain words per attribute: how often the true option's bit is 1 against another option's.
  for (auto& attribute : privacy["attributes"]) {
    if (attribute["epsilon"].is_null()) continue;
    attribute["q"] = OueQ(attribute["epsilon"].get<double>());
  }
  return privacy;
}

}  // namespace deniable
