#include "core/kinds/grid/grid_results.h"

#include <cmath>

#include "core/kinds/grid/grid_advice.h"
#include "core/kinds/grid/grid_estimator.h"

namespace deniable {
namespace {

nlohmann::json NumberOrNull(double value) { return std::isfinite(value) ? nlohmann::json(value) : nlohmann::json(); }

nlohmann::json MeanToJson(const LinearEstimate& mean) {
  return {{"estimate", NumberOrNull(mean.estimate)},
          {"std_error", NumberOrNull(mean.std_error)},
          {"ci_low", NumberOrNull(mean.ci_low)},
          {"ci_high", NumberOrNull(mean.ci_high)},
          {"consistent", NumberOrNull(mean.consistent)},
          {"consistent_ci_low", NumberOrNull(mean.consistent_ci_low)},
          {"consistent_ci_high", NumberOrNull(mean.consistent_ci_high)}};
}

nlohmann::json LevelToJson(const std::string& label, const LinearEstimate& level) {
  return {{"label", label},
          {"frequency", NumberOrNull(level.estimate)},
          {"std_error", NumberOrNull(level.std_error)},
          {"ci_low", NumberOrNull(level.ci_low)},
          {"ci_high", NumberOrNull(level.ci_high)},
          {"consistent_frequency", NumberOrNull(level.consistent)},
          {"consistent_ci_low", NumberOrNull(level.consistent_ci_low)},
          {"consistent_ci_high", NumberOrNull(level.consistent_ci_high)}};
}

}  // namespace

nlohmann::json GridResultToJson(const GridQuestionKind& kind, const GridAggregate& aggregate, IntervalTarget target) {
  auto items = nlohmann::json::array();
  for (std::size_t item = 0; item < kind.items().size(); ++item) {
    const RowEstimate row = EstimateRow(kind.row_mechanism().channel(), aggregate.ItemCounts(item), target);
    auto levels = nlohmann::json::array();
    for (std::size_t k = 0; k < row.levels.size(); ++k) levels.push_back(LevelToJson(kind.scale()[k], row.levels[k]));
    // A channel without a distribution (duchi): "levels" is null.
    items.push_back({{"label", kind.items()[item]},
                     {"mean", MeanToJson(row.mean)},
                     {"levels", row.levels.empty() ? nlohmann::json() : levels}});
  }
  const auto& row = kind.row_mechanism();
  nlohmann::json interval_for = IntervalForJson(target);
  if (!row.estimates_distribution() && target == IntervalTarget::kRespondents) {
    interval_for["note"] = "duchi gives the mean position only; its interval for these respondents is the population's, "
                           "which is wider by the answers' spread (conservative)";
  }
  return {{"mechanism", kind.MechanismToJson()},
          {"privacy", kind.PrivacyToJson()},
          {"n", aggregate.n()},
          {"interval_for", interval_for},
          {"scale", kind.scale()},
          {"items", items},
          {"advice", GridAdviceToJson(static_cast<int>(kind.items().size()), row.levels(), kind.grid_epsilon(),
                                      aggregate.n(), row.kind())},
          {"warning", aggregate.n() == 0 ? nlohmann::json("no reports yet") : nlohmann::json()}};
}

std::vector<CsvRow> GridCsvRows(const nlohmann::json& result) {
  std::vector<CsvRow> rows;
  for (const auto& item : result.at("items")) {
    const std::string label = item.at("label").get<std::string>();
    const auto& mean = item.at("mean");
    CsvRow row{label, "mean_position", mean.at("estimate"), mean.at("std_error"), mean.at("ci_low"),
               mean.at("ci_high"), mean.at("consistent"), result.at("n")};
    row.variables = {{"item", label}};
    rows.push_back(std::move(row));
    if (item.at("levels").is_null()) continue;
    for (const auto& level : item.at("levels")) {
      const std::string name = level.at("label").get<std::string>();
      CsvRow frequency{label + ": " + name, "frequency", level.at("frequency"), level.at("std_error"),
                       level.at("ci_low"), level.at("ci_high"), level.at("consistent_frequency"), result.at("n")};
      frequency.variables = {{"item", label}, {"level", name}};
      rows.push_back(std::move(frequency));
    }
  }
  return rows;
}

}  // namespace deniable
