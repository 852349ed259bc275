#include "core/kinds/numeric/numeric_simulation.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "core/distribution/empirical_comparison.h"
#include "core/common/seeded_random.h"
#include "core/kinds/numeric/numeric_truth.h"

namespace deniable {
namespace {

// The reconstructed distribution as the results document shows it: the
// density on m equal display cells (mass = density x cell width). With the
// default options (200 display points over 100 estimation cells) every
// estimation cell is split in two, so this is the estimate exactly; other
// choices re-bin it (numeric_results.h), which is what the analyst sees.
Result<GridDistribution> ShownDistribution(NumericRange range, const nlohmann::json& result) {
  const auto& density = result.at("density").at("value");
  const double cell = range.width() / static_cast<double>(density.size());
  std::vector<double> masses;
  for (const auto& value : density) masses.push_back(value.get<double>() * cell);
  return MakeGridDistribution(range, std::move(masses));
}

bool Inside(const nlohmann::json& interval, double value, const char* low, const char* high) {
  return interval.at(low).is_number() && interval.at(high).is_number() && interval.at(low).get<double>() <= value &&
         value <= interval.at(high).get<double>();
}

// null when the results publish no value for the statistic (not identifiable).
nlohmann::json AbsoluteError(const nlohmann::json& statistics, const char* name, double truth) {
  const nlohmann::json& value = statistics.at(name).at("value");
  if (!value.is_number()) return nullptr;
  return std::fabs(value.get<double>() - truth);
}

nlohmann::json SummaryToJson(const SampleSummary& summary) {
  return {{"mean", summary.mean},
          {"std_dev", summary.standard_deviation},
          {"median", summary.median},
          {"lower_quartile", summary.lower_quartile},
          {"upper_quartile", summary.upper_quartile}};
}

// The population's statistics (what population intervals are for): those of
// kPopulationDraws answers from the truth with a fixed seed, on the
// question's grid (their Monte-Carlo error, about 0.005 sd for the mean, is
// far below any interval's width at survey sizes).
constexpr int kPopulationDraws = 200000;
constexpr std::uint64_t kPopulationSeed = 0x706f70756c6174ULL;  // "populat"

Result<SampleSummary> PopulationSummary(const NumericTruth& truth, const std::optional<AnswerStep>& step) {
  SeededRandom random(kPopulationSeed);
  std::vector<double> answers;
  answers.reserve(kPopulationDraws);
  for (int i = 0; i < kPopulationDraws; ++i) {
    DENIABLE_ASSIGN_OR_RETURN(auto answer, truth.Draw(random));
    answers.push_back(step ? step->Nearest(answer) : answer);
  }
  std::sort(answers.begin(), answers.end());
  return SummarizeSample(answers);
}

// What an estimate's interval is for: its own "interval_for" (a name, or an
// object with "target"), else its result's, else the population (the default).
std::string IntervalTargetOf(const nlohmann::json& estimate, const nlohmann::json& result) {
  for (const nlohmann::json* holder : {&estimate, &result}) {
    const auto found = holder->find("interval_for");
    if (found == holder->end()) continue;
    if (found->is_string()) return found->get<std::string>();
    if (found->is_object() && found->contains("target")) return found->at("target").get<std::string>();
  }
  return "population";
}

class NumericTruthSampler final : public TruthSampler {
 public:
  NumericTruthSampler(NumericRange range, std::optional<AnswerStep> step, std::unique_ptr<const NumericTruth> truth,
                      SampleSummary population)
      : range_(range), step_(step), truth_(std::move(truth)), population_(population) {}

  // A respondent answers on the question's grid: the drawn answer's nearest grid value.
  Result<nlohmann::json> Draw(RandomSource& random) override {
    DENIABLE_ASSIGN_OR_RETURN(auto answer, truth_->Draw(random));
    return Answer(answer);
  }
  std::size_t rows() const override { return truth_->rows(); }
  Result<nlohmann::json> DrawRow(std::size_t row, RandomSource& /*random*/) override { return Answer(truth_->Row(row)); }

  nlohmann::json Compare(const nlohmann::json& result) const override {
    if (answers_.empty()) return {{"truth", nullptr}, {"errors", nullptr}, {"advice", nullptr}};  // every simulated respondent skipped it
    std::vector<double> answers = answers_;
    std::sort(answers.begin(), answers.end());
    const SampleSummary truth = SummarizeSample(answers);
    nlohmann::json document = {{"truth", SummaryToJson(truth)},
                                {"population_truth", SummaryToJson(population_)},
                                {"errors", nullptr},
                                {"advice", nullptr}};  // the advisor compares categorical mechanisms
    if (!result.contains("statistics")) return document;  // the estimator failed: the result carries its error
    // No curve when the reports do not determine the distribution (only its mean).
    nlohmann::json wasserstein1 = nullptr;
    if (!result.at("density").is_null()) {
      auto shown = ShownDistribution(range_, result);
      if (!shown) return document;
      wasserstein1 = Wasserstein1ToSample(*shown, answers);
    }
    const auto& statistics = result.at("statistics");
    // Each interval is checked against its own target (interval_target.h):
    // the population's value, or these respondents' own.
    auto mean_target = [&](const nlohmann::json& interval) {
      return IntervalTargetOf(interval, result) == "respondents" ? truth.mean : population_.mean;
    };
    const auto& unbiased = result.at("unbiased_mean");
    const nlohmann::json own = result.value("mechanism_estimates", nlohmann::json());
    const bool has_own_mean = own.is_object() && own.contains("mean") && own.at("mean").at("ci_low").is_number();
    document["errors"] = {{"wasserstein1", wasserstein1},
                          {"mean", AbsoluteError(statistics, "mean", truth.mean)},
                          {"std_dev", AbsoluteError(statistics, "std_dev", truth.standard_deviation)},
                          {"median", AbsoluteError(statistics, "median", truth.median)},
                          {"mean_covered", Inside(statistics.at("mean"), mean_target(statistics.at("mean")), "low", "high")},
                          {"unbiased_mean_covered", unbiased.is_null() ? nlohmann::json(nullptr)
                                                                       : nlohmann::json(Inside(unbiased, mean_target(unbiased),
                                                                                               "ci_low", "ci_high"))},
                          {"mechanism_mean_covered", has_own_mean ? nlohmann::json(Inside(own.at("mean"), mean_target(own.at("mean")),
                                                                                          "ci_low", "ci_high"))
                                                                  : nlohmann::json(nullptr)}};
    return document;
  }

 private:
  NumericRange range_;
  std::optional<AnswerStep> step_;
  std::unique_ptr<const NumericTruth> truth_;
  SampleSummary population_;
  std::vector<double> answers_;

  nlohmann::json Answer(double drawn) {
    const double value = step_ ? step_->Nearest(drawn) : drawn;
    answers_.push_back(value);
    return nlohmann::json(value);
  }
};

}  // namespace

Result<std::unique_ptr<TruthSampler>> ParseNumericTruthSampler(const NumericQuestionKind& kind,
                                                               const nlohmann::json& entry, const std::string& where) {
  DENIABLE_ASSIGN_OR_RETURN(auto truth, ParseNumericTruth(entry, kind.range(), where));
  DENIABLE_ASSIGN_OR_RETURN(auto population, PopulationSummary(*truth, kind.answer_step()));
  return std::unique_ptr<TruthSampler>(std::make_unique<NumericTruthSampler>(
      kind.range(), kind.answer_step(), std::move(truth), population));
}

}  // namespace deniable
