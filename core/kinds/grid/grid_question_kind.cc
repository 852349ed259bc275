#include "core/kinds/grid/grid_question_kind.h"

#include <cassert>

#include "core/kinds/grid/grid_advice.h"
#include "core/kinds/grid/grid_estimator.h"
#include "core/kinds/grid/grid_results.h"
#include "core/kinds/grid/grid_truth.h"

namespace deniable {
namespace {

std::vector<std::string> NoEstimateOptions() { return {}; }

Result<nlohmann::json> NoCanonicalOptions(const nlohmann::json& /*options*/) { return nlohmann::json::object(); }

}  // namespace

KindEntry GridQuestionKind::Entry() { return {kType, &Parse, NoEstimateOptions(), &NoCanonicalOptions}; }

Result<std::shared_ptr<const QuestionKind>> GridQuestionKind::Parse(const nlohmann::json& object,
                                                                    const std::string& where) {
  DENIABLE_ASSIGN_OR_RETURN(auto client, GridClient::ParseGrid(object, where));
  return std::shared_ptr<const QuestionKind>(new GridQuestionKind(*client));
}

Result<std::unique_ptr<const KindResponse>> GridQuestionKind::Decode(const nlohmann::json& wire) const {
  DENIABLE_ASSIGN_OR_RETURN(auto levels, ReadLevels(wire, items_.size(), row_->outputs(), "a grid report"));
  return std::unique_ptr<const KindResponse>(std::make_unique<GridResponse>(std::move(levels)));
}

Result<nlohmann::json> GridQuestionKind::Estimate(const KindAggregate& aggregate, const nlohmann::json& options,
                                                  const std::function<bool()>& /*cancelled*/) const {
  DENIABLE_ASSIGN_OR_RETURN(auto target, ReadIntervalTarget(options));
  return GridResultToJson(*this, static_cast<const GridAggregate&>(aggregate), target);
}

std::vector<CsvRow> GridQuestionKind::CsvRows(const nlohmann::json& result) const { return GridCsvRows(result); }

Result<std::unique_ptr<TruthSampler>> GridQuestionKind::ParseTruth(const nlohmann::json& entry,
                                                                   const std::string& where) const {
  return ParseGridTruth(*this, entry, where);
}

std::string GridQuestionKind::SimulationText(const nlohmann::json& result) const { return GridSimulationText(result); }

std::optional<nlohmann::json> GridQuestionKind::DesignAdvice(std::int64_t respondents) const {
  return GridAdviceToJson(static_cast<int>(items_.size()), row_->levels(), epsilon_, respondents, row_->kind());
}

std::vector<ReportColumn> GridQuestionKind::Columns() const {
  nlohmann::json labels = nlohmann::json::object();
  for (std::size_t k = 0; k < scale_.size(); ++k) labels[std::to_string(k)] = scale_[k];
  if (!row_->estimates_distribution()) labels = {{"0", "low end"}, {"1", "high end"}};
  std::vector<ReportColumn> columns;
  for (std::size_t item = 0; item < items_.size(); ++item) {
    columns.push_back({".item_" + std::to_string(item),
                       "the reported level (randomised) for item '" + items_[item] + "'", labels});
  }
  return columns;
}

std::vector<nlohmann::json> GridQuestionKind::ColumnValues(const nlohmann::json& wire) const {
  return std::vector<nlohmann::json>(wire.begin(), wire.end());
}

nlohmann::json GridQuestionKind::Channel() const {
  std::vector<double> positions;
  for (std::size_t k = 0; k < scale_.size(); ++k) positions.push_back(static_cast<double>(k + 1));
  return {{"mechanism", MechanismToJson()},
          {"epsilon_per_item", row_->epsilon()},
          {"matrix", row_->channel()},
          {"report_values", UnbiasedScores(row_->channel(), positions)},
          {"matrix_meaning", "matrix[i][j] = P(report j | true level i) (a reported level; for duchi 0 = the low "
                             "end, 1 = the high end), the same for every item, each item perturbed independently; "
                             "report_values[j]: report j's unbiased value of the position (levels numbered 1..L)"}};
}

std::string_view GridAggregate::type() const { return GridQuestionKind::kType; }

void GridAggregate::Add(const KindResponse& response) {
  const auto& levels = static_cast<const GridResponse&>(response).levels;
  ++n_;
  for (std::size_t item = 0; item < levels.size(); ++item) {
    ++counts_[item * levels_ + static_cast<std::size_t>(levels[item])];
  }
}

Status GridAggregate::Merge(const KindAggregate& other) {
  if (other.type() != type()) return MakeError("a question of another kind");
  const auto& theirs = static_cast<const GridAggregate&>(other);
  if (theirs.counts_.size() != counts_.size() || theirs.levels_ != levels_) {
    return MakeError("a grid of a different shape");
  }
  n_ += theirs.n_;
  for (std::size_t i = 0; i < counts_.size(); ++i) counts_[i] += theirs.counts_[i];
  return OkStatus();
}

std::vector<std::int64_t> GridAggregate::ItemCounts(std::size_t item) const {
  return std::vector<std::int64_t>(counts_.begin() + static_cast<std::ptrdiff_t>(item * levels_),
                                   counts_.begin() + static_cast<std::ptrdiff_t>((item + 1) * levels_));
}

}  // namespace deniable
