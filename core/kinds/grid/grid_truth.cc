#include "core/kinds/grid/grid_truth.h"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <vector>

#include "core/common/json_fields.h"
#include "core/common/validation.h"

namespace deniable {
namespace {

using Weights = std::vector<double>;  // normalised, one per level

double MeanPosition(const Weights& f) {
  double mean = 0.0;
  for (std::size_t i = 0; i < f.size(); ++i) mean += static_cast<double>(i + 1) * f[i];
  return mean;
}

class GridTruth final : public TruthSampler {
 public:
  explicit GridTruth(std::vector<Weights> items)
      : items_(std::move(items)), counts_(items_.size(), std::vector<std::int64_t>(items_[0].size(), 0)) {}

  Result<nlohmann::json> Draw(RandomSource& random) override {
    auto answer = nlohmann::json::array();
    for (std::size_t item = 0; item < items_.size(); ++item) {
      const double u = UniformUnit(random);
      double cumulative = 0.0;
      std::size_t level = items_[item].size() - 1;
      for (std::size_t k = 0; k + 1 < items_[item].size(); ++k) {
        cumulative += items_[item][k];
        if (u < cumulative) {
          level = k;
          break;
        }
      }
      ++counts_[item][level];
      answer.push_back(level);
    }
    ++n_;
    return answer;
  }

  nlohmann::json Compare(const nlohmann::json& result) const override {
    if (n_ == 0) return {{"truth", nullptr}, {"errors", nullptr}, {"advice", nullptr}};
    const bool for_population =
        result.value("interval_for", nlohmann::json::object()).value("target", "") == "population";
    auto truth = nlohmann::json::array();
    auto population = nlohmann::json::array();
    double mean_error = 0.0, l1 = 0.0;
    int covered = 0;
    for (std::size_t item = 0; item < items_.size(); ++item) {
      Weights sample;
      for (std::int64_t count : counts_[item]) sample.push_back(static_cast<double>(count) / static_cast<double>(n_));
      const auto& estimate = result["items"][item];
      const double mean = MeanPosition(sample), population_mean = MeanPosition(items_[item]);
      mean_error += std::fabs(estimate["mean"]["estimate"].get<double>() - mean);
      for (std::size_t k = 0; k < sample.size() && estimate["levels"].is_array(); ++k) {
        l1 += std::fabs(estimate["levels"][k]["frequency"].get<double>() - sample[k]);
      }
      const double target = for_population ? population_mean : mean;
      covered += estimate["mean"]["ci_low"].get<double>() <= target && target <= estimate["mean"]["ci_high"].get<double>();
      truth.push_back({{"mean", mean}, {"frequencies", sample}});
      population.push_back({{"mean", population_mean}, {"frequencies", items_[item]}});
    }
    const double items = static_cast<double>(items_.size());
    return {{"truth", truth},
            {"population", population},
            {"errors", {{"mean_abs_error", mean_error / items},
                        {"l1", result["items"][0]["levels"].is_array() ? nlohmann::json(l1 / items) : nlohmann::json()},
                        {"ci_coverage", covered / items},
                        {"ci_target", for_population ? "population" : "respondents"}}},
            {"advice", result.value("advice", nlohmann::json())}};
  }

 private:
  std::vector<Weights> items_;
  std::vector<std::vector<std::int64_t>> counts_;
  std::int64_t n_ = 0;
};

Result<Weights> ReadWeights(const nlohmann::json& list, std::size_t levels, const std::string& where) {
  if (!list.is_array() || list.size() != levels) {
    return MakeError(where + ": must be an array of " + std::to_string(levels) + " non-negative weights, one per level");
  }
  Weights weights;
  double total = 0.0;
  for (const auto& weight : list) {
    if (!weight.is_number() || !std::isfinite(weight.get<double>()) || weight.get<double>() < 0.0) {
      return MakeError(where + ": weights must be finite and non-negative, found " + weight.dump());
    }
    weights.push_back(weight.get<double>());
    total += weights.back();
  }
  if (total <= 0.0) return MakeError(where + ": weights must not all be zero");
  for (double& weight : weights) weight /= total;
  return weights;
}

}  // namespace

Result<std::unique_ptr<TruthSampler>> ParseGridTruth(const GridQuestionKind& kind, const nlohmann::json& entry,
                                                     const std::string& where) {
  DENIABLE_TRY(RequireObject(entry, where));
  DENIABLE_TRY(RejectUnknownFields(entry, {"frequencies"}, where));
  if (!entry.contains("frequencies") || !entry.at("frequencies").is_array() || entry.at("frequencies").empty()) {
    return MakeError(where + ".frequencies: required: weights over the scale, or one such list per item");
  }
  const auto& frequencies = entry.at("frequencies");
  const std::size_t levels = kind.scale().size(), items = kind.items().size();
  std::vector<Weights> per_item;
  if (frequencies[0].is_array()) {
    if (frequencies.size() != items) {
      return MakeError(where + ".frequencies: must have one list per item (" + std::to_string(items) + ")");
    }
    for (std::size_t i = 0; i < items; ++i) {
      DENIABLE_ASSIGN_OR_RETURN(auto weights,
                                ReadWeights(frequencies[i], levels, where + ".frequencies[" + std::to_string(i) + "]"));
      per_item.push_back(std::move(weights));
    }
  } else {
    DENIABLE_ASSIGN_OR_RETURN(auto weights, ReadWeights(frequencies, levels, where + ".frequencies"));
    per_item.assign(items, weights);
  }
  return std::unique_ptr<TruthSampler>(std::make_unique<GridTruth>(std::move(per_item)));
}

std::string GridSimulationText(const nlohmann::json& result) {
  std::ostringstream text;
  text << "  mechanism " << result.at("mechanism").at("name").get<std::string>() << ", epsilon "
       << FormatNumber(result.at("privacy").at("epsilon").get<double>()) << " for the grid ("
       << FormatNumber(result.at("privacy").at("epsilon_per_item").get<double>()) << " per item)\n";
  text << "  item: true mean position, estimate [95% CI]\n";
  for (std::size_t i = 0; i < result.at("items").size(); ++i) {
    const auto& item = result["items"][i];
    const auto& mean = item["mean"];
    text << "    " << item["label"].get<std::string>() << ": ";
    if (result.contains("truth") && result["truth"].is_array()) {
      text << FormatSignificant(result["truth"][i]["mean"].get<double>(), 3) << ", ";
    }
    if (mean["estimate"].is_null()) {
      text << "no estimate\n";
      continue;
    }
    text << FormatSignificant(mean["estimate"].get<double>(), 3) << " ["
         << FormatSignificant(mean["ci_low"].get<double>(), 3) << ", "
         << FormatSignificant(mean["ci_high"].get<double>(), 3) << "]\n";
  }
  if (result.contains("errors") && result["errors"].is_object()) {
    const auto& errors = result["errors"];
    text << "  mean absolute error of the means " << FormatSignificant(errors["mean_abs_error"].get<double>(), 3)
         << ", intervals covering the " << errors["ci_target"].get<std::string>() << "'s mean: "
         << FormatSignificant(100.0 * errors["ci_coverage"].get<double>(), 3) << "%\n";
  }
  if (result.contains("advice") && result["advice"].is_object()) {
    text << "  advice: " << result["advice"]["note"].get<std::string>() << "\n";
  }
  return text.str();
}

}  // namespace deniable
