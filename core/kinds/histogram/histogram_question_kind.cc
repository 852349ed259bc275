#include "core/kinds/histogram/histogram_question_kind.h"

#include <algorithm>
#include <cassert>
#include <cmath>

#include "core/common/json_fields.h"
#include "core/common/random_source.h"
#include "core/common/validation.h"
#include "core/central/confidential_question_kind.h"
#include "core/kinds/histogram/histogram_advisor.h"
#include "core/kinds/histogram/histogram_bins.h"
#include "core/kinds/histogram/histogram_estimate_options.h"
#include "core/kinds/histogram/histogram_results.h"
#include "core/kinds/histogram/histogram_simulation.h"
#include "core/survey/question_fields.h"
#include "core/survey/survey.h"

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

std::vector<std::string> PublicOptionNames() { return PublicHistogramEstimateOptionNames(); }

}  // namespace

KindEntry HistogramQuestionKind::Entry() {
  return {kType, &Parse, PublicOptionNames(), &CanonicalHistogramEstimateOptions};
}

Result<std::shared_ptr<const QuestionKind>> HistogramQuestionKind::Parse(const nlohmann::json& object,
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
    return ConfidentialQuestionKind::Create(std::make_unique<HistogramBins>(std::move(unit), std::move(consumers),
                                                                            std::move(partition).value()),
                                            *trust);
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
  return std::shared_ptr<const QuestionKind>(new HistogramQuestionKind(std::move(unit), std::move(consumers),
                                                                       std::move(partition).value(), std::move(tree),
                                                                       shape, std::move(levels)));
}

nlohmann::json HistogramQuestionKind::DefinitionToJson() const {
  auto histograms = nlohmann::json::array();
  for (const ConsumerRequest& consumer : consumers_) histograms.push_back(consumer.definition);
  nlohmann::json object = {{"type", kType},
                           {"range", {range().low, range().high}},
                           {"histograms", histograms},
                           {"mechanism", MechanismToJson()}};
  if (!unit_.empty()) object["unit"] = unit_;
  return object;
}

nlohmann::json HistogramQuestionKind::MechanismToJson() const {
  return {{"name", hierarchical() ? std::string("tree") : CategoricalKindName(mechanism().params().kind)},
          {"epsilon", *epsilon()}};
}

nlohmann::json HistogramQuestionKind::PrivacyToJson() const {
  return {{"epsilon", *epsilon()},
          {"note", consumers_.size() == 1
                       ? "one report per respondent"
                       : "one report serves every histogram: epsilon holds even if the " +
                             std::to_string(consumers_.size()) + " data consumers pool what they receive"}};
}

Result<nlohmann::json> HistogramQuestionKind::Perturb(const nlohmann::json& answer, RandomSource& random) const {
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

int HistogramQuestionKind::DrawLevel(RandomSource& random) const {
  if (!tree_) return 1;
  double u = UniformUnit(random);
  for (int level = 1; level < shape_.height; ++level) {
    u -= tree_->level_weights[static_cast<std::size_t>(level) - 1];
    if (u < 0.0) return level;
  }
  return shape_.height;
}

nlohmann::json HistogramQuestionKind::PageSummary() const {
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

Result<std::unique_ptr<const KindResponse>> HistogramQuestionKind::Decode(const nlohmann::json& wire) const {
  int level = 1;
  const nlohmann::json* bits_wire = &wire;
  if (hierarchical()) {
    if (!wire.is_object() || !wire.contains("level") || !wire.contains("bits") || wire.size() != 2) {
      return MakeError("a tree report must be an object {\"level\": 1.." + std::to_string(shape_.height) +
                       ", \"bits\": [...]}");
    }
    const auto& given = wire.at("level");
    if (!given.is_number_integer() || given.get<std::int64_t>() < 1 || given.get<std::int64_t>() > shape_.height) {
      return MakeError("level must be an integer from 1 to " + std::to_string(shape_.height) + ", but is " + given.dump());
    }
    level = static_cast<int>(given.get<std::int64_t>());
    bits_wire = &wire.at("bits");
  }
  DENIABLE_ASSIGN_OR_RETURN(auto bits, level_mechanisms_[static_cast<std::size_t>(level) - 1]->Decode(*bits_wire));
  return std::unique_ptr<const KindResponse>(std::make_unique<HistogramResponse>(level, std::move(bits)));
}

LevelEstimates HistogramQuestionKind::Estimates(const HistogramAggregate& aggregate, IntervalTarget target) const {
  return LevelEstimates(shape_, mechanism().probabilities(), partition_.cells(), aggregate.levels(), target);
}

Status HistogramQuestionKind::ValidateEstimateOptions(const nlohmann::json& options) const {
  DENIABLE_ASSIGN_OR_RETURN(auto parsed, ParseHistogramEstimateOptions(options));
  return ValidateHistogramEstimateOptions(*this, parsed);
}

Result<nlohmann::json> HistogramQuestionKind::Estimate(const KindAggregate& aggregate, const nlohmann::json& options,
                                                       const std::function<bool()>& /*cancelled*/) const {
  DENIABLE_ASSIGN_OR_RETURN(auto parsed, ParseHistogramEstimateOptions(options));
  DENIABLE_TRY(ValidateHistogramEstimateOptions(*this, parsed));
  return HistogramResultToJson(*this, static_cast<const HistogramAggregate&>(aggregate), parsed);
}

std::vector<CsvRow> HistogramQuestionKind::CsvRows(const nlohmann::json& result) const {
  return HistogramCsvRows(result);
}

Result<std::unique_ptr<TruthSampler>> HistogramQuestionKind::ParseTruth(const nlohmann::json& entry,
                                                                        const std::string& where) const {
  return ParseHistogramTruthSampler(*this, entry, where);
}

std::string HistogramQuestionKind::SimulationText(const nlohmann::json& result) const {
  return HistogramSimulationText(result);
}

std::optional<nlohmann::json> HistogramQuestionKind::DesignAdvice(std::int64_t respondents) const {
  return HistogramKindAdvice(*this, respondents);
}

HistogramAggregate::HistogramAggregate(const TreeShape& shape) {
  for (int level = 1; level <= shape.height; ++level) {
    levels_.push_back({0, std::vector<std::int64_t>(static_cast<std::size_t>(shape.NodesAt(level)), 0)});
  }
}

HistogramAggregate::HistogramAggregate(std::vector<LevelCounts> levels) : levels_(std::move(levels)) {
  for (const LevelCounts& level : levels_) n_ += level.n;
}

std::string_view HistogramAggregate::type() const { return HistogramQuestionKind::kType; }

void HistogramAggregate::Add(const KindResponse& response) {
  const auto& report = static_cast<const HistogramResponse&>(response);
  LevelCounts& level = levels_[static_cast<std::size_t>(report.level) - 1];
  ++n_;
  ++level.n;
  for (std::size_t i = 0; i < report.bits.size(); ++i) level.counts[i] += report.bits[i];
}

Status HistogramAggregate::Merge(const KindAggregate& other) {
  if (other.type() != type()) return MakeError("a question of another kind");
  const auto& theirs = static_cast<const HistogramAggregate&>(other);
  if (theirs.levels_.size() != levels_.size()) return MakeError("a different number of levels");
  for (std::size_t l = 0; l < levels_.size(); ++l) {
    if (theirs.levels_[l].counts.size() != levels_[l].counts.size()) return MakeError("a different number of cells");
  }
  n_ += theirs.n_;
  for (std::size_t l = 0; l < levels_.size(); ++l) {
    levels_[l].n += theirs.levels_[l].n;
    for (std::size_t i = 0; i < levels_[l].counts.size(); ++i) levels_[l].counts[i] += theirs.levels_[l].counts[i];
  }
  return OkStatus();
}

const HistogramQuestionKind& HistogramKindOf(const Question& question) {
  assert(question.kind->type() == HistogramQuestionKind::kType);
  return static_cast<const HistogramQuestionKind&>(*question.kind);
}

}  // namespace deniable
