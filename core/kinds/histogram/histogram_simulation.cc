#include "core/kinds/histogram/histogram_simulation.h"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "core/common/seeded_random.h"
#include "core/common/text_format.h"
#include "core/common/validation.h"
#include "core/kinds/histogram/histogram_advisor.h"
#include "core/kinds/numeric/numeric_truth.h"

namespace deniable {
namespace {

class HistogramTruthSampler final : public TruthSampler {
 public:
  HistogramTruthSampler(const HistogramQuestionKind& kind, std::unique_ptr<const NumericTruth> truth)
      : partition_(kind.partition()),
        truth_(std::move(truth)),
        cell_counts_(static_cast<std::size_t>(kind.partition().cells()), 0),
        kind_(std::static_pointer_cast<const HistogramQuestionKind>(
            HistogramQuestionKind::Parse(kind.DefinitionToJson(), "truth").value())) {
    for (const ConsumerRequest& consumer : kind.consumers()) bin_starts_.push_back(partition_.BinStarts(consumer.boundaries));
  }

  Result<nlohmann::json> Draw(RandomSource& random) override {
    DENIABLE_ASSIGN_OR_RETURN(auto answer, truth_->Draw(random));
    return Answer(answer);
  }
  std::size_t rows() const override { return truth_->rows(); }
  Result<nlohmann::json> DrawRow(std::size_t row, RandomSource& /*random*/) override { return Answer(truth_->Row(row)); }

  // The truth each interval is for: the population's cell shares (interval_for population, the default) or
  // these respondents' own.
  nlohmann::json Compare(const nlohmann::json& result) const override {
    if (n_ == 0) return {{"truth", nullptr}, {"errors", nullptr}, {"advice", nullptr}};
    const bool population = result.at("interval_for").at("target") == "population";
    const std::vector<double> shares = population ? PopulationShares() : SampleShares();
    auto truth = nlohmann::json::object();
    auto errors = nlohmann::json::array();
    const auto n = static_cast<double>(n_);
    for (std::size_t j = 0; j < bin_starts_.size(); ++j) {
      const auto& histogram = result.at("histograms").at(j);
      const auto& bins = histogram.at("bins");
      std::vector<double> frequencies;
      double l1 = 0.0, linf = 0.0, squared = 0.0, consistent_l1 = 0.0;
      int covered = 0;
      for (std::size_t b = 0; b + 1 < bin_starts_[j].size(); ++b) {
        double f = 0.0;
        for (int k = bin_starts_[j][b]; k < bin_starts_[j][b + 1]; ++k) f += shares[static_cast<std::size_t>(k)];
        frequencies.push_back(f);
        if (!bins[b].at("frequency").is_number()) continue;  // a tree level with no reports yet
        const double error = bins[b].at("frequency").get<double>() - f;
        l1 += std::fabs(error);
        linf = std::max(linf, std::fabs(error));
        squared += error * error * n * n;
        consistent_l1 += std::fabs(bins[b].at("consistent_frequency").get<double>() - f);
        covered += bins[b].at("ci_low").get<double>() <= f && f <= bins[b].at("ci_high").get<double>() ? 1 : 0;
      }
      const auto count = static_cast<double>(frequencies.size());
      truth[histogram.at("name").get<std::string>()] = frequencies;
      errors.push_back({{"name", histogram.at("name")},
                        {"l1", l1},
                        {"linf", linf},
                        {"count_mse_per_bin", squared / count},
                        {"consistent_l1", consistent_l1},
                        {"ci_coverage", covered / count}});
    }
    return {{"truth", truth},
            {"truth_for", population ? "population" : "respondents"},
            {"errors", {{"histograms", errors}}},
            {"advice", HistogramKindAdvice(*kind_, result.at("n").get<std::int64_t>())}};
  }

 private:
  std::vector<double> SampleShares() const {
    std::vector<double> shares;
    for (std::int64_t count : cell_counts_) shares.push_back(static_cast<double>(count) / static_cast<double>(n_));
    return shares;
  }

  // The truth distribution's cell shares, from M answers of its own (a fixed seed), M = 25 n within
  // [10^5, 10^6]: a share's error sd sqrt(pi (1 - pi) / M) is at most a fifth of the population interval's
  // standard error, sqrt(pi (1 - pi) / n) or more, up to n = 40,000 (and its square 1/25 of the variance).
  std::vector<double> PopulationShares() const {
    const std::int64_t draws = std::clamp<std::int64_t>(25 * n_, 100000, 1000000);
    SeededRandom random(0x5eed);
    std::vector<double> shares(cell_counts_.size(), 0.0);
    for (std::int64_t i = 0; i < draws; ++i) {
      auto answer = truth_->Draw(random);
      if (!answer) return SampleShares();  // cannot happen: the same truth drew the respondents' answers
      shares[static_cast<std::size_t>(partition_.CellOf(*answer))] += 1.0 / static_cast<double>(draws);
    }
    return shares;
  }

  FinePartition partition_;
  std::unique_ptr<const NumericTruth> truth_;
  std::vector<std::vector<int>> bin_starts_;
  std::vector<std::int64_t> cell_counts_;
  std::int64_t n_ = 0;
  std::shared_ptr<const HistogramQuestionKind> kind_;  // its own copy, for the advice

  nlohmann::json Answer(double answer) {
    ++cell_counts_[static_cast<std::size_t>(partition_.CellOf(answer))];
    ++n_;
    return nlohmann::json(answer);
  }
};

}  // namespace

Result<std::unique_ptr<TruthSampler>> ParseHistogramTruthSampler(const HistogramQuestionKind& kind,
                                                                 const nlohmann::json& entry, const std::string& where) {
  DENIABLE_ASSIGN_OR_RETURN(auto truth, ParseNumericTruth(entry, kind.range(), where));
  return std::unique_ptr<TruthSampler>(std::make_unique<HistogramTruthSampler>(kind, std::move(truth)));
}

std::string HistogramSimulationText(const nlohmann::json& result) {
  std::ostringstream text;
  text << "  mechanism " << result.at("mechanism").at("name").get<std::string>() << ", epsilon "
       << FormatNumber(result.at("mechanism").at("epsilon").get<double>()) << ", " << result.at("bits_per_report")
       << " fine cells (bits per report), n = " << result.at("n") << "\n";
  if (result.contains("interval_for")) {
    text << "  intervals and truth: " << result.at("interval_for").at("target").get<std::string>()
         << (result.at("interval_for").at("target") == "population" ? " (the share the answers were drawn from)"
                                                                     : " (these respondents' own shares)")
         << "\n";
  }
  const auto& truth = result.value("truth", nlohmann::json());
  for (std::size_t j = 0; j < result.at("histograms").size(); ++j) {
    const auto& histogram = result.at("histograms")[j];
    const std::string name = histogram.at("name").get<std::string>();
    text << "  histogram \"" << name << "\":\n    bin                      truth   estimate   95% CI                consistent\n";
    const auto& bins = histogram.at("bins");
    for (std::size_t b = 0; b < bins.size(); ++b) {
      const auto& bin = bins[b];
      const std::string label = "[" + FormatNumber(bin.at("low").get<double>()) + ", " +
                                FormatNumber(bin.at("high").get<double>()) + (b + 1 == bins.size() ? "]" : ")");
      const auto shown = [](const nlohmann::json& value) { return Fixed(value, 4); };
      const std::string true_value = truth.is_object() && truth.contains(name) ? Fixed(truth.at(name)[b].get<double>(), 4) : "-";
      text << "    " << Padded(label, 24, false) << " " << Padded(true_value, 6, true) << "   " << Padded(shown(bin.at("frequency")), 8, true)
           << "   [" << shown(bin.at("ci_low")) << ", " << shown(bin.at("ci_high")) << "]   "
           << shown(bin.at("consistent_frequency")) << "\n";
    }
    const auto& errors = result.value("errors", nlohmann::json());
    if (errors.is_object()) {
      const auto& error = errors.at("histograms")[j];
      text << "    L1 " << Fixed(error.at("l1").get<double>(), 4) << ", max " << Fixed(error.at("linf").get<double>(), 4)
           << ", count MSE per bin " << Fixed(error.at("count_mse_per_bin").get<double>(), 1) << ", consistent L1 "
           << Fixed(error.at("consistent_l1").get<double>(), 4) << ", 95% CI covered "
           << Fixed(100.0 * error.at("ci_coverage").get<double>(), 0) << "% of bins\n";
    }
  }
  const auto& advice = result.value("advice", nlohmann::json());
  if (advice.is_object()) {
    text << "  advisor (expected count MSE per bin, by consumer):\n";
    for (const auto& mechanism : advice.at("mechanisms")) {
      text << "    " << Padded(mechanism.at("name").get<std::string>(), 9, false);
      for (const auto& mse : mechanism.at("count_mse_per_bin")) text << " " << Padded(Fixed(mse.get<double>(), 0), 12, true);
      text << "\n";
    }
    text << "    recommended: " << advice.at("recommended").get<std::string>() << " (" << advice.at("reason").get<std::string>() << ")\n";
  }
  if (result.at("warning").is_string()) text << "  warning: " << result.at("warning").get<std::string>() << "\n";
  return text.str();
}

}  // namespace deniable
