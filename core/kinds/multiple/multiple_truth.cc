#include "core/kinds/multiple/multiple_truth.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include "core/common/json_fields.h"
#include "core/common/text_format.h"
#include "core/kinds/multiple/multiple_advice.h"

namespace deniable {
namespace {

using nlohmann::json;

class MultipleTruth final : public TruthSampler {
 public:
  // Either independent shares (rows empty) or a table's sets.
  MultipleTruth(std::vector<double> shares, std::vector<std::vector<int>> rows, int max_choices, double epsilon)
      : shares_(std::move(shares)), rows_(std::move(rows)), counts_(shares_.size(), 0),
        sizes_(shares_.size() + 1, 0), max_choices_(max_choices), epsilon_(epsilon) {}

  Result<json> Draw(RandomSource& random) override {
    if (!rows_.empty()) return Remember(rows_[static_cast<std::size_t>(UniformBelow(random, rows_.size()))]);
    std::vector<int> set;
    for (std::size_t i = 0; i < shares_.size(); ++i) {
      if (Bernoulli(random, shares_[i])) set.push_back(static_cast<int>(i));
    }
    return Remember(set);
  }
  std::size_t rows() const override { return rows_.size(); }
  Result<json> DrawRow(std::size_t row, RandomSource& /*random*/) override { return Remember(rows_[row]); }

  json Compare(const json& result) const override {
    if (n_ == 0) return {{"truth", nullptr}, {"errors", nullptr}, {"advice", nullptr}};
    const bool for_population = result.value("interval_for", json::object()).value("target", "") == "population";
    const double n = static_cast<double>(n_);
    double l1 = 0.0, linf = 0.0, mse = 0.0;
    int covered = 0;
    json truth = json::array(), population = json::array();
    for (std::size_t i = 0; i < counts_.size(); ++i) {
      const double f = static_cast<double>(counts_[i]) / n;
      truth.push_back(f);
      population.push_back(shares_[i]);
      const json& option = result.at("options")[i];
      const double error = option.at("share").get<double>() - f;
      l1 += std::fabs(error);
      linf = std::max(linf, std::fabs(error));
      mse += error * error;
      const double target = for_population ? shares_[i] : f;
      covered += option.at("ci_low").get<double>() <= target && target <= option.at("ci_high").get<double>() ? 1 : 0;
    }
    double mean = 0.0;
    json sizes = json::array();
    for (std::size_t c = 0; c < sizes_.size(); ++c) {
      mean += static_cast<double>(c * sizes_[c]) / n;
      if (c <= static_cast<std::size_t>(max_choices_)) sizes.push_back(static_cast<double>(sizes_[c]) / n);
    }
    const double options = static_cast<double>(counts_.size());
    return {{"truth", truth},
            {"population", population},
            {"number_chosen_truth", {{"mean", mean}, {"distribution", sizes}}},
            {"errors",
             {{"l1", l1},
              {"linf", linf},
              {"mse", mse / options},
              {"mean_chosen_error", result.at("number_chosen").at("mean").get<double>() - mean},
              {"ci_coverage", covered / options},
              {"ci_target", for_population ? "population" : "respondents"}}},
            {"advice", SetAdviceToJson(AdviseSet(static_cast<int>(counts_.size()), max_choices_, epsilon_, n_))}};
  }

 private:
  json Remember(const std::vector<int>& set) {
    for (int i : set) ++counts_[static_cast<std::size_t>(i)];
    ++sizes_[set.size()];
    ++n_;
    return json(set);
  }

  std::vector<double> shares_;
  std::vector<std::vector<int>> rows_;
  std::vector<std::int64_t> counts_;
  std::vector<std::int64_t> sizes_;
  int max_choices_;
  double epsilon_;
  std::int64_t n_ = 0;
};

Result<std::unique_ptr<TruthSampler>> ParseRows(const MultipleQuestionKind& kind, const json& values,
                                                const std::string& where) {
  const int k = static_cast<int>(kind.options().size());
  if (!values.is_array() || values.empty()) return MakeError(where + ".values: must be a non-empty array of sets");
  std::vector<std::vector<int>> rows;
  std::vector<double> shares(static_cast<std::size_t>(k), 0.0);
  for (std::size_t r = 0; r < values.size(); ++r) {
    auto set = ReadSetAnswer(values[r], k, kind.max_choices());
    if (!set) return MakeError(where + ".values[" + std::to_string(r) + "]: " + set.error());
    for (int i : *set) shares[static_cast<std::size_t>(i)] += 1.0 / static_cast<double>(values.size());
    rows.push_back(std::move(set).value());
  }
  return std::unique_ptr<TruthSampler>(
      std::make_unique<MultipleTruth>(std::move(shares), std::move(rows), kind.max_choices(), *kind.epsilon()));
}

std::string OptionTable(const json& question) {
  std::size_t width = 6;
  for (const auto& option : question.at("options")) width = std::max(width, option.at("label").get<std::string>().size());
  std::string text = "  " + Padded("option", width, false) + "  population     truth  estimate  95% CI\n";
  for (std::size_t i = 0; i < question.at("options").size(); ++i) {
    const json& option = question.at("options")[i];
    text += "  " + Padded(option.at("label").get<std::string>(), width, false) + "  " +
            Padded(Fixed(question.at("population")[i]), 10, true) + "  " +
            Padded(Fixed(question.at("truth")[i]), 8, true) + "  " + Padded(Fixed(option.at("share")), 8, true) +
            "  [" + Fixed(option.at("ci_low")) + ", " + Fixed(option.at("ci_high")) + "]\n";
  }
  return text;
}

}  // namespace

Result<std::unique_ptr<TruthSampler>> ParseMultipleTruth(const MultipleQuestionKind& kind, const json& entry,
                                                         const std::string& where) {
  DENIABLE_TRY(RequireObject(entry, where));
  DENIABLE_TRY(RejectUnknownFields(entry, {"shares", "values"}, where));
  if (entry.contains("values")) return ParseRows(kind, entry.at("values"), where);
  const std::size_t k = kind.options().size();
  const json& shares = entry.contains("shares") ? entry.at("shares") : json();
  if (!shares.is_array() || shares.size() != k) {
    return MakeError(where + ".shares: must be an array of " + std::to_string(k) + " shares in [0, 1], one per option");
  }
  if (kind.max_choices() != static_cast<int>(k)) {
    return MakeError(where + ".shares: independent shares need max_choices = " + std::to_string(k) +
                     " (a cap would change them); give \"values\", a table of sets, instead");
  }
  std::vector<double> values;
  for (const auto& share : shares) {
    if (!share.is_number() || !(share.get<double>() >= 0.0 && share.get<double>() <= 1.0)) {
      return MakeError(where + ".shares: each must be a number in [0, 1], found " + share.dump());
    }
    values.push_back(share.get<double>());
  }
  return std::unique_ptr<TruthSampler>(
      std::make_unique<MultipleTruth>(std::move(values), std::vector<std::vector<int>>(), kind.max_choices(),
                                      *kind.epsilon()));
}

std::string MultipleSimulationText(const json& question) {
  std::string text = "  mechanism " + question.at("mechanism").at("name").get<std::string>() + ", epsilon " +
                     EpsilonText(question.at("privacy").at("epsilon")) + " (" +
                     question.at("privacy").at("guarantee").get<std::string>() + "), n = " +
                     std::to_string(question.at("n").get<long long>()) + "\n";
  if (question.at("errors").is_null()) return text;
  const json& errors = question.at("errors");
  const json& chosen = question.at("number_chosen");
  char line[256];
  std::snprintf(line, sizeof line,
                "  number chosen: mean %.3f [%.3f, %.3f] (truth %.3f)\n  errors: L1 %.4f  L-inf %.4f  MSE %.3g  "
                "CI coverage %.0f%% of options (of the %s)\n",
                chosen.at("mean").get<double>(), chosen.at("ci_low").get<double>(), chosen.at("ci_high").get<double>(),
                question.at("number_chosen_truth").at("mean").get<double>(), errors.at("l1").get<double>(),
                errors.at("linf").get<double>(), errors.at("mse").get<double>(),
                100.0 * errors.at("ci_coverage").get<double>(),
                errors.at("ci_target") == "respondents" ? "respondents' own shares" : "population's shares");
  const json& advice = question.at("advice");
  std::string advisor = "  advisor: use " + advice.at("recommended").get<std::string>() + ": " +
                        advice.at("reason").get<std::string>() + "\n";
  const std::string truncation =
      question.contains("truncation") ? "  note: " + question.at("truncation").get<std::string>() + "\n" : "";
  return text + OptionTable(question) + line + truncation + advisor;
}

}  // namespace deniable
