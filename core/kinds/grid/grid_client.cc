#include "core/kinds/grid/grid_client.h"

#include "core/common/json_fields.h"
#include "core/common/validation.h"
#include "core/survey/question_fields.h"

namespace deniable {
namespace {

constexpr std::size_t kMaxItems = 30;
constexpr std::size_t kMaxLevels = 11;

// A list of labels under `field`, with the options' rules (question_fields.h):
// 2 to `most` distinct, non-empty labels.
Result<std::vector<std::string>> ParseLabels(const nlohmann::json& object, const char* field, std::size_t most,
                                             const std::string& where) {
  if (!object.contains(field)) return MakeError(where + "." + field + ": required field is missing");
  auto labels = ParseOptionsField(nlohmann::json{{"options", object.at(field)}}, where, most);
  if (labels) return labels;
  std::string message = labels.error();
  const std::string options = where + ".options";
  if (message.rfind(options, 0) == 0) message = where + "." + field + message.substr(options.size());
  return MakeError(message);
}

Result<double> ParseMechanism(const nlohmann::json& object, const std::string& where,
                              GridMechanismKind* kind) {
  DENIABLE_TRY(RequireObject(object, where));
  DENIABLE_TRY(RejectUnknownFields(object, {"name", "epsilon"}, where));
  DENIABLE_ASSIGN_OR_RETURN(auto name, ReadString(object, "name", 32, true, where));
  auto parsed = ParseGridMechanismKind(name);
  if (!parsed) return InContext(where + ".name", parsed.error());
  *kind = *parsed;
  if (!object.contains("epsilon") || !object.at("epsilon").is_number()) {
    return MakeError(where + ".epsilon: must be a number (the whole grid's epsilon)");
  }
  const double epsilon = object.at("epsilon").get<double>();
  if (auto status = ValidateEpsilon(epsilon); !status) return InContext(where + ".epsilon", status.error());
  return epsilon;
}

}  // namespace

KindClientEntry GridClient::Entry() { return {kType, &Parse}; }

Result<std::shared_ptr<const KindClient>> GridClient::Parse(const nlohmann::json& object, const std::string& where) {
  DENIABLE_ASSIGN_OR_RETURN(auto client, ParseGrid(object, where));
  return std::shared_ptr<const KindClient>(std::move(client));
}

Result<std::shared_ptr<const GridClient>> GridClient::ParseGrid(const nlohmann::json& object,
                                                                const std::string& where) {
  DENIABLE_TRY(RejectUnknownQuestionFields(object, {"items", "scale", "mechanism"}, where));
  DENIABLE_ASSIGN_OR_RETURN(auto items, ParseLabels(object, "items", kMaxItems, where));
  DENIABLE_ASSIGN_OR_RETURN(auto scale, ParseLabels(object, "scale", kMaxLevels, where));
  if (!object.contains("mechanism")) return MakeError(where + ".mechanism: required field is missing");
  GridMechanismKind kind = GridMechanismKind::kOrdinal;
  DENIABLE_ASSIGN_OR_RETURN(double epsilon, ParseMechanism(object.at("mechanism"), where + ".mechanism", &kind));
  auto row = GridRowMechanism::Create(kind, static_cast<int>(scale.size()), epsilon / static_cast<double>(items.size()));
  if (!row) {
    return MakeError(where + ".mechanism.epsilon: each of the " + std::to_string(items.size()) +
                     " items is reported at epsilon / " + std::to_string(items.size()) + " = " +
                     FormatNumber(epsilon / static_cast<double>(items.size())) + ", and " + row.error());
  }
  return std::shared_ptr<const GridClient>(new GridClient(std::move(items), std::move(scale), epsilon, *row));
}

nlohmann::json GridClient::DefinitionToJson() const {
  return {{"type", kType}, {"items", items_}, {"scale", scale_}, {"mechanism", MechanismToJson()}};
}

nlohmann::json GridClient::MechanismToJson() const {
  return {{"name", GridMechanismName(row_->kind())}, {"epsilon", epsilon_}};
}

nlohmann::json GridClient::PrivacyToJson() const {
  const std::string rows = std::to_string(items_.size());
  return {{"epsilon", epsilon_},
          {"epsilon_per_item", row_->epsilon()},
          {"note", "the whole grid is " + FormatNumber(epsilon_) + "-LDP: each of its " + rows +
                       " items is reported at " + FormatNumber(row_->epsilon()) +
                       " with its own randomness, and by sequential composition all " + rows +
                       " answers together are protected at " + FormatNumber(epsilon_) +
                       "; one item's answer alone at " + FormatNumber(row_->epsilon())}};
}

Result<std::vector<int>> ReadLevels(const nlohmann::json& value, std::size_t items, int levels, const char* what) {
  if (!value.is_array() || value.size() != items) {
    return MakeError(std::string(what) + " must be an array of " + std::to_string(items) +
                     " level indices, one per item, but is " + value.dump());
  }
  std::vector<int> result;
  for (std::size_t i = 0; i < items; ++i) {
    const auto& level = value[i];
    if (!level.is_number_integer() || level.get<std::int64_t>() < 0 || level.get<std::int64_t>() >= levels) {
      return MakeError(std::string(what) + "[" + std::to_string(i) + "] must be a level between 0 and " +
                       std::to_string(levels - 1) + ", but is " + level.dump());
    }
    result.push_back(static_cast<int>(level.get<std::int64_t>()));
  }
  return result;
}

Result<nlohmann::json> GridClient::Perturb(const nlohmann::json& answer, RandomSource& random) const {
  DENIABLE_ASSIGN_OR_RETURN(auto levels, ReadLevels(answer, items_.size(), row_->levels(), "answer"));
  auto report = nlohmann::json::array();
  for (int level : levels) report.push_back(row_->Perturb(level, random));
  return report;
}

nlohmann::json GridClient::PageSummary() const {
  return {{"epsilon_per_item", row_->epsilon()}, {"channel", row_->channel()}};
}

}  // namespace deniable
