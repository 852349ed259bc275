#include "core/kinds/open/open_truth.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>
#include <vector>

#include "core/common/json_fields.h"
#include "core/kinds/numeric/numeric_truth.h"

namespace deniable {
namespace {

bool Covers(const nlohmann::json& low, const nlohmann::json& high, double target) {
  return low.is_number() && high.is_number() && low.get<double>() <= target && target <= high.get<double>();
}

bool ForPopulation(const nlohmann::json& result) {
  return result.value("interval_for", nlohmann::json::object()).value("target", "") == "population";
}

class OpenCategoryTruth final : public TruthSampler {
 public:
  OpenCategoryTruth(std::vector<double> shares, std::vector<std::size_t> rows)
      : shares_(std::move(shares)), rows_(std::move(rows)), counts_(shares_.size(), 0) {}

  Result<nlohmann::json> Draw(RandomSource& random) override {
    if (!rows_.empty()) return Remember(rows_[static_cast<std::size_t>(UniformBelow(random, rows_.size()))]);
    const double u = UniformUnit(random);
    double sum = 0.0;
    for (std::size_t c = 0; c < shares_.size(); ++c) {
      sum += shares_[c];
      if (u < sum) return Remember(c);
    }
    return Remember(shares_.size() - 1);
  }
  std::size_t rows() const override { return rows_.size(); }
  Result<nlohmann::json> DrawRow(std::size_t row, RandomSource& /*random*/) override { return Remember(rows_[row]); }

  nlohmann::json Compare(const nlohmann::json& result) const override {
    if (n_ == 0) return {{"truth", nullptr}, {"errors", nullptr}, {"advice", nullptr}};
    const bool population = ForPopulation(result);
    auto truth = nlohmann::json::array();
    double l1 = 0.0;
    int covered = 0, shown = 0;
    for (std::size_t c = 0; c < counts_.size(); ++c) {
      const double share = static_cast<double>(counts_[c]) / static_cast<double>(n_);
      truth.push_back(share);
      const auto& option = result.at("options")[c];
      if (!option.at("frequency").is_number()) continue;  // hidden: fewer than five
      ++shown;
      l1 += std::fabs(option.at("frequency").get<double>() - share);
      covered += Covers(option.at("ci_low"), option.at("ci_high"), population ? shares_[c] : share) ? 1 : 0;
    }
    return {{"truth", truth},
            {"population", shares_},
            {"errors", {{"l1", l1}, {"ci_coverage", shown == 0 ? nlohmann::json() : nlohmann::json(double(covered) / shown)}}},
            {"advice", nullptr}};
  }

 private:
  Result<nlohmann::json> Remember(std::size_t category) {
    ++counts_[category];
    ++n_;
    return nlohmann::json(category);
  }

  std::vector<double> shares_;
  std::vector<std::size_t> rows_;
  std::vector<std::int64_t> counts_;
  std::int64_t n_ = 0;
};

class OpenValueTruth final : public TruthSampler {
 public:
  explicit OpenValueTruth(std::unique_ptr<const NumericTruth> truth) : truth_(std::move(truth)) {}

  Result<nlohmann::json> Draw(RandomSource& random) override {
    DENIABLE_ASSIGN_OR_RETURN(auto value, truth_->Draw(random));
    answers_.push_back(value);
    return nlohmann::json(value);
  }
  std::size_t rows() const override { return truth_->rows(); }
  Result<nlohmann::json> DrawRow(std::size_t row, RandomSource& /*random*/) override {
    answers_.push_back(truth_->Row(row));
    return nlohmann::json(answers_.back());
  }

  nlohmann::json Compare(const nlohmann::json& result) const override {
    if (answers_.empty()) return {{"truth", nullptr}, {"errors", nullptr}, {"advice", nullptr}};
    const double mean = std::accumulate(answers_.begin(), answers_.end(), 0.0) / static_cast<double>(answers_.size());
    const auto& estimate = result.at("statistics").at("mean");
    return {{"truth", {{"mean", mean}}},
            {"errors", {{"mean", std::fabs(estimate.at("value").get<double>() - mean)},
                        {"mean_covered_respondents", Covers(estimate.at("low"), estimate.at("high"), mean)}}},
            {"advice", nullptr}};
  }

 private:
  std::unique_ptr<const NumericTruth> truth_;
  std::vector<double> answers_;
};

Result<std::vector<double>> ReadShares(std::size_t options, const nlohmann::json& weights, const std::string& where) {
  if (!weights.is_array() || weights.size() != options) {
    return MakeError(where + ".frequencies: must be an array of " + std::to_string(options) +
                     " non-negative weights, one per option");
  }
  std::vector<double> shares;
  for (const auto& weight : weights) {
    if (!weight.is_number() || !std::isfinite(weight.get<double>()) || weight.get<double>() < 0.0) {
      return MakeError(where + ".frequencies: weights must be finite and non-negative, found " + weight.dump());
    }
    shares.push_back(weight.get<double>());
  }
  const double total = std::accumulate(shares.begin(), shares.end(), 0.0);
  if (total <= 0.0) return MakeError(where + ".frequencies: weights must not all be zero");
  for (double& share : shares) share /= total;
  return shares;
}

}  // namespace

Result<std::unique_ptr<TruthSampler>> ParseOpenCategoryTruth(std::size_t options, const nlohmann::json& entry,
                                                             const std::string& where) {
  DENIABLE_TRY(RequireObject(entry, where));
  DENIABLE_TRY(RejectUnknownFields(entry, {"frequencies", "values"}, where));
  if (entry.contains("values")) {
    const auto& values = entry.at("values");
    if (!values.is_array() || values.empty()) return MakeError(where + ".values: must be a non-empty array of options");
    std::vector<std::size_t> rows;
    std::vector<double> shares(options, 0.0);
    for (std::size_t i = 0; i < values.size(); ++i) {
      if (!values[i].is_number_unsigned() || values[i].get<std::size_t>() >= options) {
        return MakeError(where + ".values[" + std::to_string(i) + "]: must be an option index below " +
                         std::to_string(options) + ", but is " + values[i].dump());
      }
      rows.push_back(values[i].get<std::size_t>());
      shares[rows.back()] += 1.0 / static_cast<double>(values.size());
    }
    return std::unique_ptr<TruthSampler>(std::make_unique<OpenCategoryTruth>(std::move(shares), std::move(rows)));
  }
  DENIABLE_ASSIGN_OR_RETURN(auto shares, ReadShares(options, entry.value("frequencies", nlohmann::json()), where));
  return std::unique_ptr<TruthSampler>(std::make_unique<OpenCategoryTruth>(std::move(shares),
                                                                           std::vector<std::size_t>{}));
}

Result<std::unique_ptr<TruthSampler>> ParseOpenValueTruth(NumericRange range, const nlohmann::json& entry,
                                                          const std::string& where) {
  DENIABLE_ASSIGN_OR_RETURN(auto truth, ParseNumericTruth(entry, range, where));
  return std::unique_ptr<TruthSampler>(std::make_unique<OpenValueTruth>(std::move(truth)));
}

std::string OpenSimulationText(const nlohmann::json& result) {
  char line[200];
  std::snprintf(line, sizeof line, "  asked openly: sent as given, counted exactly; n = %lld\n",
                static_cast<long long>(result.value("n", std::int64_t{0})));
  std::string text = line;
  // Categorical: each option's exact share beside the simulated truth; numeric: the mean beside the truth's.
  const auto& options = result.value("options", nlohmann::json::array());
  const auto& truth = result.value("truth", nlohmann::json());
  // The population's shares (what the intervals are for by default), the respondents' being the estimates themselves.
  const auto& population = result.value("population", nlohmann::json());
  for (std::size_t c = 0; c < options.size(); ++c) {
    const auto& option = options[c];
    const double share = population.is_array() && c < population.size() ? population[c].get<double>() : NAN;
    if (option.at("frequency").is_number()) {
      std::snprintf(line, sizeof line, "  %-20s %8.4f  [%.4f, %.4f]  population %.4f\n",
                    option.at("label").get<std::string>().c_str(), option.at("frequency").get<double>(),
                    option.at("ci_low").get<double>(), option.at("ci_high").get<double>(), share);
    } else {
      std::snprintf(line, sizeof line, "  %-20s   hidden (%s)\n", option.at("label").get<std::string>().c_str(),
                    option.value("hidden", std::string("not shown")).c_str());
    }
    text += line;
  }
  const auto& statistics = result.value("statistics", nlohmann::json());
  if (statistics.is_object() && statistics.contains("mean")) {
    const auto& mean = statistics.at("mean");
    const double true_mean = truth.is_object() ? truth.value("mean", NAN) : NAN;
    std::snprintf(line, sizeof line, "  mean %.4g  [%.4g, %.4g]  respondents' mean %.4g\n", mean.at("value").get<double>(),
                  mean.at("low").get<double>(), mean.at("high").get<double>(), true_mean);
    text += line;
  }
  return text;
}

}  // namespace deniable
