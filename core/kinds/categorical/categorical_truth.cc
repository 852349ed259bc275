#include "core/kinds/categorical/categorical_truth.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "core/common/json_fields.h"

namespace deniable {
namespace {

int DrawAnswer(const std::vector<double>& cumulative, RandomSource& random) {
  const double u = UniformUnit(random);
  const auto it = std::upper_bound(cumulative.begin(), cumulative.end(), u);
  return static_cast<int>(std::min<std::ptrdiff_t>(it - cumulative.begin(),
                                                   static_cast<std::ptrdiff_t>(cumulative.size()) - 1));
}

class CategoricalTruth final : public TruthSampler {
 public:
  // `rows`: a table's column of answers (a CSV truth), empty for weights.
  CategoricalTruth(std::vector<double> cumulative, std::vector<int> rows = {})
      : cumulative_(std::move(cumulative)), rows_(std::move(rows)), counts_(cumulative_.size(), 0) {}

  Result<nlohmann::json> Draw(RandomSource& random) override {
    if (!rows_.empty()) return Remember(rows_[static_cast<std::size_t>(UniformBelow(random, rows_.size()))]);
    return Remember(DrawAnswer(cumulative_, random));
  }
  std::size_t rows() const override { return rows_.size(); }
  Result<nlohmann::json> DrawRow(std::size_t row, RandomSource& /*random*/) override { return Remember(rows_[row]); }

  // Errors are against the simulated respondents' own frequencies ("truth");
  // the intervals' coverage is against their own target ("interval_for"):
  // the population's frequencies the answers were drawn from, or the sample's.
  nlohmann::json Compare(const nlohmann::json& result) const override {
    if (n_ == 0) return {{"truth", nullptr}, {"errors", nullptr}, {"advice", nullptr}};  // everyone skipped it
    const bool for_population = result.value("interval_for", nlohmann::json::object()).value("target", "") == "population";
    double l1 = 0.0, linf = 0.0, mse = 0.0, consistent_l1 = 0.0;
    int covered = 0;
    auto truth = nlohmann::json::array();
    auto population = nlohmann::json::array();
    for (std::size_t i = 0; i < counts_.size(); ++i) {
      const double f = static_cast<double>(counts_[i]) / static_cast<double>(n_);
      const double share = cumulative_[i] - (i == 0 ? 0.0 : cumulative_[i - 1]);
      truth.push_back(f);
      population.push_back(share);
      const auto& option = result["options"][i];
      const double error = option["frequency"].get<double>() - f;
      l1 += std::fabs(error);
      linf = std::max(linf, std::fabs(error));
      mse += error * error;
      consistent_l1 += std::fabs(option["consistent_frequency"].get<double>() - f);
      const double target = for_population ? share : f;
      covered += (option["ci_low"].get<double>() <= target && target <= option["ci_high"].get<double>()) ? 1 : 0;
    }
    const double options = static_cast<double>(counts_.size());
    return {{"truth", truth},
            {"population", population},
            {"errors", {{"l1", l1},
                        {"linf", linf},
                        {"mse", mse / options},
                        {"consistent_l1", consistent_l1},
                        {"ci_coverage", static_cast<double>(covered) / options},
                        {"ci_target", for_population ? "population" : "respondents"}}},
            {"advice", CategoricalAdvice(result)}};
  }

 private:
  nlohmann::json Remember(int answer) {
    ++counts_[static_cast<std::size_t>(answer)];
    ++n_;
    return nlohmann::json(answer);
  }

  std::vector<double> cumulative_;
  std::vector<int> rows_;
  std::vector<std::int64_t> counts_;
  std::int64_t n_ = 0;
};

// A table's column of option indices: the population is the column's own shares.
Result<std::unique_ptr<TruthSampler>> ParseRows(std::size_t options, const nlohmann::json& values,
                                                const std::string& where) {
  if (!values.is_array() || values.empty()) return MakeError(where + ".values: must be a non-empty array of options");
  std::vector<int> rows;
  std::vector<double> cumulative(options, 0.0);
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (!values[i].is_number_unsigned() || values[i].get<std::size_t>() >= options) {
      return MakeError(where + ".values[" + std::to_string(i) + "]: must be an option index below " +
                       std::to_string(options) + ", but is " + values[i].dump());
    }
    rows.push_back(values[i].get<int>());
    cumulative[values[i].get<std::size_t>()] += 1.0 / static_cast<double>(values.size());
  }
  for (std::size_t c = 1; c < options; ++c) cumulative[c] += cumulative[c - 1];
  return std::unique_ptr<TruthSampler>(std::make_unique<CategoricalTruth>(std::move(cumulative), std::move(rows)));
}

}  // namespace

Result<std::unique_ptr<TruthSampler>> ParseCategoricalTruth(const CategoricalQuestionKind& kind,
                                                            const nlohmann::json& entry, const std::string& where) {
  DENIABLE_TRY(RequireObject(entry, where));
  DENIABLE_TRY(RejectUnknownFields(entry, {"frequencies", "values"}, where));
  if (entry.contains("values")) return ParseRows(kind.options().size(), entry.at("values"), where);
  const auto& weights = entry.contains("frequencies") ? entry.at("frequencies") : nlohmann::json();
  if (!weights.is_array() || weights.size() != kind.options().size()) {
    return MakeError(where + ".frequencies: must be an array of " + std::to_string(kind.options().size()) +
                     " non-negative weights, one per option");
  }
  std::vector<double> sums;
  double total = 0.0;
  for (const auto& weight : weights) {
    if (!weight.is_number() || !std::isfinite(weight.get<double>()) || weight.get<double>() < 0.0) {
      return MakeError(where + ".frequencies: weights must be finite and non-negative, found " + weight.dump());
    }
    total += weight.get<double>();
    sums.push_back(total);
  }
  if (total <= 0.0) return MakeError(where + ".frequencies: weights must not all be zero");
  for (double& sum : sums) sum /= total;
  return std::unique_ptr<TruthSampler>(std::make_unique<CategoricalTruth>(std::move(sums)));
}

}  // namespace deniable
