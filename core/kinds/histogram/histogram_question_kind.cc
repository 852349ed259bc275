#include "core/kinds/histogram/histogram_question_kind.h"

#include <algorithm>
#include <cassert>
#include <cmath>

#include "core/common/json_fields.h"
#include "core/common/validation.h"
#include "core/kinds/histogram/histogram_estimate_options.h"
#include "core/kinds/histogram/histogram_results.h"
#include "core/kinds/histogram/histogram_simulation.h"
#include "core/survey/question_fields.h"
#include "core/survey/survey.h"

namespace deniable {
namespace {

// {"name": "sue" | "oue", "epsilon": e} over `cells` fine cells.
Result<std::shared_ptr<const CategoricalMechanism>> ParseMechanism(const nlohmann::json& object, int cells,
                                                                   const std::string& where) {
  DENIABLE_TRY(RequireObject(object, where));
  DENIABLE_TRY(RejectUnknownFields(object, {"name", "epsilon"}, where));
  auto name = ReadString(object, "name", 32, true, where);
  if (!name) return MakeError(name.error());
  if (*name != "sue" && *name != "oue") {
    return MakeError(where + ".name: must be \"sue\" (the paper's basic RAPPOR) or \"oue\", but is \"" + *name + "\"");
  }
  if (!object.contains("epsilon") || !object.at("epsilon").is_number()) {
    return MakeError(where + ".epsilon: required, a number");
  }
  const double epsilon = object.at("epsilon").get<double>();
  if (auto status = ValidateEpsilon(epsilon); !status) return InContext(where, status.error());
  const CategoricalKind kind = *name == "sue" ? CategoricalKind::kSue : CategoricalKind::kOue;
  auto mechanism = CreateCategoricalMechanism({kind, cells, epsilon, 1});
  if (!mechanism) return InContext(where, mechanism.error());
  return std::shared_ptr<const CategoricalMechanism>(std::move(mechanism).value());
}

std::vector<std::string> PublicOptionNames() { return PublicHistogramEstimateOptionNames(); }

}  // namespace

KindEntry HistogramQuestionKind::Entry() {
  return {kType, &Parse, PublicOptionNames(), &CanonicalHistogramEstimateOptions};
}

Result<std::shared_ptr<const QuestionKind>> HistogramQuestionKind::Parse(const nlohmann::json& object,
                                                                         const std::string& where) {
  DENIABLE_TRY(RejectUnknownQuestionFields(object, {"range", "unit", "histograms", "mechanism"}, where));
  auto range = ParseRangeField(object, where);
  if (!range) return MakeError(range.error());
  auto unit = ReadString(object, "unit", 32, false, where);
  if (!unit) return MakeError(unit.error());
  auto consumers = ParseConsumerRequests(object, *range, where);
  if (!consumers) return MakeError(consumers.error());
  std::vector<std::vector<RangeFraction>> boundaries;
  for (const ConsumerRequest& consumer : *consumers) boundaries.push_back(consumer.boundaries);
  auto partition = FinePartition::Merge(*range, boundaries);
  if (!partition) return InContext(where + ".histograms", partition.error());
  if (!object.contains("mechanism")) return MakeError(where + ".mechanism: required field is missing");
  auto mechanism = ParseMechanism(object.at("mechanism"), partition->cells(), where + ".mechanism");
  if (!mechanism) return MakeError(mechanism.error());
  return std::shared_ptr<const QuestionKind>(new HistogramQuestionKind(
      std::move(unit).value(), std::move(consumers).value(), std::move(partition).value(), std::move(mechanism).value()));
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
  return {{"name", CategoricalKindName(mechanism_->params().kind)}, {"epsilon", *mechanism_->epsilon()}};
}

nlohmann::json HistogramQuestionKind::PrivacyToJson() const {
  return {{"epsilon", *mechanism_->epsilon()},
          {"note", "one report serves every histogram: epsilon holds even if all " +
                       std::to_string(consumers_.size()) + " data consumers pool what they receive"}};
}

Result<nlohmann::json> HistogramQuestionKind::Perturb(const nlohmann::json& answer, RandomSource& random) const {
  if (!answer.is_number() || !std::isfinite(answer.get<double>())) {
    return MakeError("must be a number, but is " + answer.dump());
  }
  // CellOf clamps into [a, b]: an answer outside the range counts at its nearer end.
  auto bits = mechanism_->Perturb(partition_.CellOf(answer.get<double>()), random);
  if (!bits) return MakeError(bits.error());
  return mechanism_->Encode(*bits);
}

nlohmann::json HistogramQuestionKind::PageSummary() const {
  const auto pq = mechanism_->probabilities();
  std::vector<double> edges;
  for (int h = 0; h <= partition_.cells(); ++h) edges.push_back(partition_.BoundaryValue(h));
  return {{"p", pq.p}, {"q", pq.q}, {"fine_edges", edges}};
}

Result<std::unique_ptr<const KindResponse>> HistogramQuestionKind::Decode(const nlohmann::json& wire) const {
  auto bits = mechanism_->Decode(wire);
  if (!bits) return MakeError(bits.error());
  return std::unique_ptr<const KindResponse>(std::make_unique<HistogramResponse>(std::move(bits).value()));
}

Status HistogramQuestionKind::ValidateEstimateOptions(const nlohmann::json& options) const {
  auto parsed = ParseHistogramEstimateOptions(options);
  if (!parsed) return MakeError(parsed.error());
  return ValidateHistogramEstimateOptions(*this, *parsed);
}

Result<nlohmann::json> HistogramQuestionKind::Estimate(const KindAggregate& aggregate, const nlohmann::json& options,
                                                       const std::function<bool()>& /*cancelled*/) const {
  auto parsed = ParseHistogramEstimateOptions(options);
  if (!parsed) return MakeError(parsed.error());
  DENIABLE_TRY(ValidateHistogramEstimateOptions(*this, *parsed));
  return HistogramResultToJson(*this, static_cast<const HistogramAggregate&>(aggregate), *parsed);
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

std::string_view HistogramAggregate::type() const { return HistogramQuestionKind::kType; }

void HistogramAggregate::Add(const KindResponse& response) {
  const Support& bits = static_cast<const HistogramResponse&>(response).bits;
  ++n_;
  for (std::size_t i = 0; i < bits.size(); ++i) bit_counts_[i] += bits[i];
}

Status HistogramAggregate::Merge(const KindAggregate& other) {
  if (other.type() != type()) return MakeError("a question of another kind");
  const auto& theirs = static_cast<const HistogramAggregate&>(other);
  if (theirs.bit_counts_.size() != bit_counts_.size()) return MakeError("a different number of fine cells");
  n_ += theirs.n_;
  for (std::size_t i = 0; i < bit_counts_.size(); ++i) bit_counts_[i] += theirs.bit_counts_[i];
  return OkStatus();
}

const HistogramQuestionKind& HistogramKindOf(const Question& question) {
  assert(question.kind->type() == HistogramQuestionKind::kType);
  return static_cast<const HistogramQuestionKind&>(*question.kind);
}

}  // namespace deniable
