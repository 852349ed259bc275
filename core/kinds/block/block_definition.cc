#include "core/kinds/block/block_definition.h"

#include <algorithm>
#include <set>

#include "core/common/json_fields.h"
#include "core/common/validation.h"
#include "core/survey/question_fields.h"

namespace deniable {
namespace {

// Visits every set of at most `order` of n attributes (as index lists).
template <typename Visit>
void ForEachSubset(int n, int order, Visit visit) {
  for (std::uint32_t mask = 1; mask < (std::uint32_t{1} << n); ++mask) {
    std::vector<int> members;
    for (int a = 0; a < n; ++a) {
      if (mask & (std::uint32_t{1} << a)) members.push_back(a);
    }
    if (static_cast<int>(members.size()) <= order) visit(members);
  }
}

Result<BlockAttribute> ParseAttribute(const nlohmann::json& object, const std::string& where) {
  DENIABLE_TRY(RequireObject(object, where));
  DENIABLE_TRY(RejectUnknownFields(object, {"id", "text", "options"}, where));
  DENIABLE_ASSIGN_OR_RETURN(auto id, ReadString(object, "id", 64, true, where));
  DENIABLE_TRY(ValidateId(id, where + ".id"));
  DENIABLE_ASSIGN_OR_RETURN(auto text, ReadString(object, "text", 2000, true, where));
  DENIABLE_ASSIGN_OR_RETURN(auto options, ParseOptionsField(object, where, kMaxAttributeOptions));
  return BlockAttribute{id, text, std::move(options)};
}

Result<std::vector<BlockAttribute>> ParseAttributes(const nlohmann::json& question, const std::string& where) {
  const std::string path = where + ".attributes";
  if (!question.contains("attributes")) return MakeError(path + ": required field is missing");
  const auto& list = question.at("attributes");
  if (!list.is_array() || list.size() < 2 || list.size() > kMaxAttributes) {
    return MakeError(path + ": must be an array of 2 to " + std::to_string(kMaxAttributes) + " attributes");
  }
  std::vector<BlockAttribute> attributes;
  std::set<std::string> ids;
  for (std::size_t i = 0; i < list.size(); ++i) {
    const std::string item = path + "[" + std::to_string(i) + "]";
    DENIABLE_ASSIGN_OR_RETURN(auto attribute, ParseAttribute(list[i], item));
    if (!ids.insert(attribute.id).second) return MakeError(item + ".id: duplicate attribute id \"" + attribute.id + "\"");
    attributes.push_back(std::move(attribute));
  }
  return attributes;
}

Result<ShareBounds> ParseShareBounds(const nlohmann::json& mechanism, double epsilon, const std::string& where) {
  ShareBounds bounds;
  if (!mechanism.contains("share_bounds")) {
    // The defaults, within the epsilons every mechanism accepts.
    bounds.low = std::max(bounds.low, kMinEpsilon / epsilon);
    bounds.high = std::max(1.0, std::min(bounds.high, kMaxEpsilon / epsilon));
    return bounds;
  }
  const std::string path = where + ".share_bounds";
  const auto& value = mechanism.at("share_bounds");
  if (!value.is_array() || value.size() != 2 || !value[0].is_number() || !value[1].is_number()) {
    return MakeError(path + ": must be [low, high], two numbers (shares in units of epsilon_per_attribute), but is " +
                     value.dump());
  }
  bounds = {value[0].get<double>(), value[1].get<double>()};
  if (!(bounds.low > 0.0 && bounds.low <= 1.0 && bounds.high >= 1.0 && bounds.high <= kMaxAttributes)) {
    return MakeError(path + ": must satisfy 0 < low <= 1 <= high <= " + std::to_string(kMaxAttributes) +
                     " (the equal split must fit), but is " + value.dump());
  }
  if (auto status = ValidateEpsilon(bounds.low * epsilon, "the smallest share (low * epsilon_per_attribute)"); !status) {
    return InContext(path, status.error());
  }
  if (auto status = ValidateEpsilon(bounds.high * epsilon, "the largest share (high * epsilon_per_attribute)");
      !status) {
    return InContext(path, status.error());
  }
  return bounds;
}

Status ParseMechanism(const nlohmann::json& question, const std::string& where, BlockDefinition& block) {
  const std::string path = where + ".mechanism";
  if (!question.contains("mechanism")) return MakeError(path + ": required field is missing");
  const auto& mechanism = question.at("mechanism");
  DENIABLE_TRY(RequireObject(mechanism, path));
  DENIABLE_TRY(RejectUnknownFields(mechanism, {"name", "epsilon_per_attribute", "share_bounds"}, path));
  DENIABLE_ASSIGN_OR_RETURN(auto name, ReadString(mechanism, "name", 32, true, path));
  if (name != "pmoue") return MakeError(path + ".name: must be \"pmoue\", but is \"" + name + "\"");
  DENIABLE_ASSIGN_OR_RETURN(auto epsilon, ReadFiniteNumber(mechanism, "epsilon_per_attribute", path));
  if (auto status = ValidateEpsilon(epsilon, "epsilon_per_attribute"); !status) {
    return InContext(path + ".epsilon_per_attribute", status.error());
  }
  DENIABLE_ASSIGN_OR_RETURN(auto bounds, ParseShareBounds(mechanism, epsilon, path));
  block.epsilon_per_attribute = epsilon;
  block.bounds = bounds;
  return OkStatus();
}

Status ParseJointOrder(const nlohmann::json& question, const std::string& where, BlockDefinition& block) {
  const std::vector<int> sizes = block.sizes();
  const int most = std::min(kMaxJointOrder, block.attribute_count());
  if (!question.contains("joint_order")) {
    block.joint_order = std::min(3, most);
    while (block.joint_order > 1 && AggregateCells(sizes, block.joint_order) > kMaxAggregateCells) --block.joint_order;
    return OkStatus();
  }
  DENIABLE_ASSIGN_OR_RETURN(auto order, ReadInteger(question, "joint_order", 1, most, where));
  block.joint_order = static_cast<int>(order);
  const std::int64_t cells = AggregateCells(sizes, block.joint_order);
  if (cells > kMaxAggregateCells) {
    return MakeError(where + ".joint_order: " + std::to_string(block.joint_order) + " needs an aggregate of " +
                     std::to_string(cells) + " counts, more than the limit of " + std::to_string(kMaxAggregateCells) +
                     ": lower it, or use fewer attributes or options");
  }
  return OkStatus();
}

}  // namespace

std::vector<int> BlockDefinition::sizes() const {
  std::vector<int> sizes;
  for (const auto& attribute : attributes) sizes.push_back(attribute.size());
  return sizes;
}

int BlockDefinition::IndexOf(const std::string& id) const {
  for (std::size_t a = 0; a < attributes.size(); ++a) {
    if (attributes[a].id == id) return static_cast<int>(a);
  }
  return -1;
}

std::int64_t AggregateCells(const std::vector<int>& sizes, int joint_order) {
  const int n = static_cast<int>(sizes.size());
  std::int64_t total = 0;
  ForEachSubset(n, joint_order, [&](const std::vector<int>& members) {
    std::int64_t cells = 1;
    for (int a : members) cells *= sizes[static_cast<std::size_t>(a)] + 1;
    cells += std::int64_t{1} << members.size();  // the moments of the bits' row sums
    // One table per number answered: |S| .. n.
    total += cells * (n - static_cast<std::int64_t>(members.size()) + 1);
  });
  return total;
}

Result<BlockDefinition> ParseBlockDefinition(const nlohmann::json& question, const std::string& where) {
  BlockDefinition block;
  DENIABLE_ASSIGN_OR_RETURN(auto attributes, ParseAttributes(question, where));
  block.attributes = std::move(attributes);
  DENIABLE_TRY(ParseMechanism(question, where, block));
  DENIABLE_TRY(ParseJointOrder(question, where, block));
  return block;
}

nlohmann::json BlockAttributesToJson(const BlockDefinition& block) {
  auto list = nlohmann::json::array();
  for (const auto& attribute : block.attributes) {
    list.push_back({{"id", attribute.id}, {"text", attribute.text}, {"options", attribute.options}});
  }
  return list;
}

nlohmann::json BlockMechanismToJson(const BlockDefinition& block) {
  return {{"name", "pmoue"},
          {"epsilon_per_attribute", block.epsilon_per_attribute},
          {"share_bounds", {block.bounds.low, block.bounds.high}}};
}

}  // namespace deniable
