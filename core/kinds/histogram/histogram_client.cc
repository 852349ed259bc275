#include "core/kinds/histogram/histogram_client.h"

#include <cmath>

#include "core/central/confidential_client.h"
#include "core/common/json_fields.h"
#include "core/common/random_source.h"
#include "core/common/validation.h"
#include "core/kinds/histogram/histogram_bins.h"
#include "core/survey/question_fields.h"

namespace deniable {
namespace {

struct ParsedMechanism {
  CategoricalKind encoding;
  bool tree;
  double epsilon;
};

// {"name": "sue" | "oue" | "tree", "epsilon": e}.
Result<ParsedMechanism> ParseMechanism(const nlohmann::json& object, const std::string& where) {
  DENIABLE_TRY(RequireObject(object, where));
  DENIABLE_TRY(RejectUnknownFields(object, {"name", "epsilon"}, where));
  DENIABLE_ASSIGN_OR_RETURN(auto name, ReadString(object, "name", 32, true, where));
  if (name != "sue" && name != "oue" && name != "tree") {
    return MakeError(where + ".name: must be \"sue\" (the paper's basic RAPPOR), \"oue\" or \"tree\", but is \"" +
                     name + "\"");
  }
  if (!object.contains("epsilon") || !object.at("epsilon").is_number()) {
    return MakeError(where + ".epsilon: required, a number");
  }
  const double epsilon = object.at("epsilon").get<double>();
  if (auto status = ValidateEpsilon(epsilon); !status) return InContext(where, status.error());
  // The tree sends OUE at each level: its variance does not grow with the level's size.
  return ParsedMechanism{name == "sue" ? CategoricalKind::kSue : CategoricalKind::kOue, name == "tree", epsilon};
}

// Every consumer's bins as ranges of fine cells.
std::vector<std::pair<int, int>> DeclaredBins(const FinePartition& partition,
                                              const std::vector<ConsumerRequest>& consumers) {
  std::vector<std::pair<int, int>> bins;
  for (const ConsumerRequest& consumer : consumers) {
    const std::vector<int> starts = partition.BinStarts(consumer.boundaries);
    for (std::size_t b = 0; b + 1 < starts.size(); ++b) bins.emplace_back(starts[b], starts[b + 1]);
  }
  return bins;
}

}  // namespace

KindClientEntry HistogramClient::Entry() { return {kType, &Parse}; }

Result<std::shared_ptr<const KindClient>> HistogramClient::Parse(const nlohmann::json& object,
                                                                 const std::string& where) {
  DENIABLE_TRY(RejectUnknownQuestionFields(
      object, {"range", "unit", "histograms", "mechanism", "privacy", "budget", "admin_sees_counts"}, where));
  DENIABLE_ASSIGN_OR_RETURN(auto trust, ParseTrustFields(object, where));
  DENIABLE_ASSIGN_OR_RETURN(auto range, ParseRangeField(object, where));
  DENIABLE_ASSIGN_OR_RETURN(auto unit, ReadString(object, "unit", 32, false, where));
  DENIABLE_ASSIGN_OR_RETURN(auto consumers, ParseConsumerRequests(object, range, where));
  std::vector<std::vector<RangeFraction>> boundaries;
  for (const ConsumerRequest& consumer : consumers) boundaries.push_back(consumer.boundaries);
  auto partition = FinePartition::Merge(range, boundaries);
  if (!partition) return InContext(where + ".histograms", partition.error());
  if (trust) {
    return ConfidentialClient::Create(
        std::make_shared<HistogramBins>(std::move(unit), std::move(consumers), std::move(partition).value()), *trust);
  }
  if (!object.contains("mechanism")) return MakeError(where + ".mechanism: required field is missing");
  DENIABLE_ASSIGN_OR_RETURN(auto mechanism, ParseMechanism(object.at("mechanism"), where + ".mechanism"));
  std::optional<TreeDesign> tree;
  TreeShape shape{partition->cells(), 1};
  if (mechanism.tree) {
    tree = ChooseTreeDesign(partition->cells(), DeclaredBins(*partition, consumers));
    shape = tree->shape;
  }
  std::vector<std::shared_ptr<const CategoricalMechanism>> levels;
  for (int level = 1; level <= shape.height; ++level) {
    auto encoding = CreateCategoricalMechanism({mechanism.encoding, shape.NodesAt(level), mechanism.epsilon, 1});
    if (!encoding) return InContext(where + ".mechanism", encoding.error());
    levels.push_back(std::move(encoding).value());
  }
  return std::shared_ptr<const KindClient>(new HistogramClient(std::move(unit), std::move(consumers),
                                                              std::move(partition).value(), std::move(tree), shape,
                                                              std::move(levels)));
}

nlohmann::json HistogramClient::DefinitionToJson() const {
  auto histograms = nlohmann::json::array();
  for (const ConsumerRequest& consumer : consumers_) histograms.push_back(consumer.definition);
  nlohmann::json object = {{"type", kType},
                           {"range", {range().low, range().high}},
                           {"histograms", histograms},
                           {"mechanism", MechanismToJson()}};
  if (!unit_.empty()) object["unit"] = unit_;
  return object;
}

nlohmann::json HistogramClient::MechanismToJson() const {
  return {{"name", hierarchical() ? std::string("tree") : CategoricalKindName(mechanism().params().kind)},
          {"epsilon", *epsilon()}};
}

nlohmann::json HistogramClient::PrivacyToJson() const {
  return {{"epsilon", *epsilon()},
          {"note", consumers_.size() == 1
                       ? "one report per respondent"
                       : "one report serves every histogram: epsilon holds even if the " +
                             std::to_string(consumers_.size()) + " data consumers pool what they receive"}};
}

Result<nlohmann::json> HistogramClient::Perturb(const nlohmann::json& answer, RandomSource& random) const {
  if (!answer.is_number() || !std::isfinite(answer.get<double>())) {
    return MakeError("must be a number, but is " + answer.dump());
  }
  // CellOf clamps into [a, b]: an answer outside the range counts at its nearer end.
  const int level = DrawLevel(random);
  const CategoricalMechanism& encoding = *level_mechanisms_[static_cast<std::size_t>(level) - 1];
  DENIABLE_ASSIGN_OR_RETURN(auto bits,
                            encoding.Perturb(partition_.CellOf(answer.get<double>()) / shape_.SpanOf(level), random));
  if (!hierarchical()) return encoding.Encode(bits);
  return nlohmann::json{{"level", level}, {"bits", encoding.Encode(bits)}};
}

int HistogramClient::DrawLevel(RandomSource& random) const {
  if (!tree_) return 1;
  double u = UniformUnit(random);
  for (int level = 1; level < shape_.height; ++level) {
    u -= tree_->level_weights[static_cast<std::size_t>(level) - 1];
    if (u < 0.0) return level;
  }
  return shape_.height;
}

nlohmann::json HistogramClient::PageSummary() const {
  const auto pq = mechanism().probabilities();
  std::vector<double> edges;
  for (int h = 0; h <= partition_.cells(); ++h) edges.push_back(partition_.BoundaryValue(h));
  nlohmann::json summary = {{"p", pq.p}, {"q", pq.q}, {"fine_edges", edges}, {"tree", nullptr}};
  if (tree_) {
    summary["tree"] = {{"fanout", shape_.fanout}, {"height", shape_.height}, {"level_weights", tree_->level_weights},
                       {"reason", tree_->reason}};
  }
  return summary;
}

}  // namespace deniable
