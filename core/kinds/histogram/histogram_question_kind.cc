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

std::vector<std::string> PublicOptionNames() { return PublicHistogramEstimateOptionNames(); }

}  // namespace

KindEntry HistogramQuestionKind::Entry() {
  return {kType, &Parse, PublicOptionNames(), &CanonicalHistogramEstimateOptions};
}

// The client's parse decides the variant (confidential or local); the full
// kind is built from the client it gives.
Result<std::shared_ptr<const QuestionKind>> HistogramQuestionKind::Parse(const nlohmann::json& object,
                                                                         const std::string& where) {
  DENIABLE_ASSIGN_OR_RETURN(auto client, HistogramClient::Parse(object, where));
  if (const auto* confidential = dynamic_cast<const ConfidentialClient*>(client.get())) {
    return ConfidentialQuestionKind::Create(*confidential);
  }
  return std::shared_ptr<const QuestionKind>(new HistogramQuestionKind(dynamic_cast<const HistogramClient&>(*client)));
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
