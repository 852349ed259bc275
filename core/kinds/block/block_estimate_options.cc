#include "core/kinds/block/block_estimate_options.h"

#include "core/common/number_text.h"
#include "core/kinds/block/block_aggregate.h"

namespace deniable {
namespace {

std::string Text(const nlohmann::json& value) {
  if (value.is_string()) return value.get<std::string>();
  return value.dump();
}

std::vector<std::string> SplitIds(const std::string& text) {
  std::vector<std::string> ids;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t comma = std::min(text.find(',', start), text.size());
    ids.push_back(text.substr(start, comma - start));
    start = comma + 1;
  }
  return ids;
}

}  // namespace

// "interval" is every kind's: the server lists and keys it (results_query.cc).
std::vector<std::string> PublicBlockEstimateOptionNames() { return {"mode", "crosstab", "split_score", "min_group"}; }

Result<BlockEstimateOptions> ParseBlockEstimateOptions(const nlohmann::json& options) {
  BlockEstimateOptions parsed;
  if (!options.is_object()) return parsed;
  DENIABLE_ASSIGN_OR_RETURN(auto target, ReadIntervalTarget(options));
  parsed.cross_tab.interval = target;
  if (const auto mode = options.find("mode"); mode != options.end() && !mode->is_null()) {
    const std::string value = Text(*mode);
    if (value != "calibrated" && value != "paper") {
      return MakeError("mode must be \"calibrated\" or \"paper\", but is \"" + value + "\"");
    }
    parsed.cross_tab.mode = value == "paper" ? BlockMode::kPaper : BlockMode::kCalibrated;
  }
  if (const auto score = options.find("split_score"); score != options.end() && !score->is_null()) {
    const std::string value = Text(*score);
    if (value != "formula" && value != "prose") {
      return MakeError("split_score must be \"formula\" or \"prose\", but is \"" + value + "\"");
    }
    parsed.cross_tab.split_score = value == "prose" ? SplitScore::kProse : SplitScore::kFormula;
  }
  if (const auto group = options.find("min_group"); group != options.end() && !group->is_null()) {
    const std::optional<double> value =
        group->is_number() ? std::optional<double>(group->get<double>()) : ParseFiniteNumber(Text(*group));
    if (!value || *value != static_cast<double>(static_cast<std::int64_t>(*value)) || *value < 1 || *value > 1e9) {
      return MakeError("min_group must be an integer from 1 to 1000000000, but is \"" + Text(*group) + "\"");
    }
    parsed.cross_tab.min_group = static_cast<std::int64_t>(*value);
  }
  if (const auto crosstab = options.find("crosstab"); crosstab != options.end() && !crosstab->is_null()) {
    if (crosstab->is_array()) {
      for (const auto& id : *crosstab) parsed.crosstab.push_back(Text(id));
    } else {
      parsed.crosstab = SplitIds(Text(*crosstab));
    }
  }
  return parsed;
}

Result<std::uint32_t> CrossTabSet(const BlockDefinition& block, const BlockEstimateOptions& options) {
  if (options.crosstab.empty()) return std::uint32_t{3};  // the first two attributes
  const std::size_t most = std::min<std::size_t>(block.attributes.size(), 2 * static_cast<std::size_t>(block.joint_order));
  if (options.crosstab.size() < 2 || options.crosstab.size() > most) {
    return MakeError("crosstab must name 2 to " + std::to_string(most) + " attributes (the block has " +
                     std::to_string(block.attributes.size()) + "; at most 2 x joint_order " +
                     std::to_string(block.joint_order) + " = " + std::to_string(2 * block.joint_order) + "), but names " +
                     std::to_string(options.crosstab.size()));
  }
  std::uint32_t set = 0;
  for (const std::string& id : options.crosstab) {
    const int a = block.IndexOf(id);
    if (a < 0) return MakeError("crosstab: the block has no attribute \"" + id + "\"");
    const std::uint32_t bit = std::uint32_t{1} << a;
    if (set & bit) return MakeError("crosstab: attribute \"" + id + "\" is named twice");
    set |= bit;
  }
  std::int64_t cells = 1;
  for (int a : Members(set)) cells *= block.attributes[static_cast<std::size_t>(a)].size();
  if (cells > kMaxCrossTabCells) {
    return MakeError("crosstab: " + std::to_string(cells) + " cells, more than the limit of " +
                     std::to_string(kMaxCrossTabCells) + ": name fewer attributes or attributes with fewer options");
  }
  return set;
}

Result<nlohmann::json> CanonicalBlockEstimateOptions(const nlohmann::json& options) {
  DENIABLE_ASSIGN_OR_RETURN(auto parsed, ParseBlockEstimateOptions(options));
  return nlohmann::json{{"mode", parsed.cross_tab.mode == BlockMode::kPaper ? "paper" : "calibrated"},
                        {"split_score", parsed.cross_tab.split_score == SplitScore::kProse ? "prose" : "formula"},
                        {"min_group", parsed.cross_tab.min_group},
                        {"crosstab", parsed.crosstab}};
}

}  // namespace deniable
