#include "core/kinds/numeric/numeric_simulation.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "core/distribution/empirical_comparison.h"
#include "core/numeric/numeric_truth.h"

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

class NumericTruthSampler final : public TruthSampler {
 public:
  NumericTruthSampler(NumericRange range, std::optional<AnswerStep> step, std::unique_ptr<const NumericTruth> truth)
      : range_(range), step_(step), truth_(std::move(truth)) {}

  // A respondent answers on the question's grid: the drawn answer's nearest grid value.
  Result<nlohmann::json> Draw(RandomSource& random) override {
    auto answer = truth_->Draw(random);
    if (!answer) return MakeError(answer.error());
    return Answer(*answer);
  }
  std::size_t rows() const override { return truth_->rows(); }
  Result<nlohmann::json> DrawRow(std::size_t row, RandomSource& /*random*/) override { return Answer(truth_->Row(row)); }

  nlohmann::json Compare(const nlohmann::json& result) const override {
    if (answers_.empty()) return {{"truth", nullptr}, {"errors", nullptr}, {"advice", nullptr}};  // every simulated respondent skipped it
    std::vector<double> answers = answers_;
    std::sort(answers.begin(), answers.end());
    const SampleSummary truth = SummarizeSample(answers);
    nlohmann::json document = {{"truth",
                                 {{"mean", truth.mean},
                                  {"std_dev", truth.standard_deviation},
                                  {"median", truth.median},
                                  {"lower_quartile", truth.lower_quartile},
                                  {"upper_quartile", truth.upper_quartile}}},
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
    const auto& unbiased = result.at("unbiased_mean");
    const nlohmann::json own = result.value("mechanism_estimates", nlohmann::json());
    const bool has_own_mean = own.is_object() && own.contains("mean") && own.at("mean").at("ci_low").is_number();
    document["errors"] = {{"wasserstein1", wasserstein1},
                          {"mean", AbsoluteError(statistics, "mean", truth.mean)},
                          {"std_dev", AbsoluteError(statistics, "std_dev", truth.standard_deviation)},
                          {"median", AbsoluteError(statistics, "median", truth.median)},
                          {"mean_covered", Inside(statistics.at("mean"), truth.mean, "low", "high")},
                          {"unbiased_mean_covered", unbiased.is_null() ? nlohmann::json(nullptr)
                                                                       : nlohmann::json(Inside(unbiased, truth.mean,
                                                                                               "ci_low", "ci_high"))},
                          {"mechanism_mean_covered", has_own_mean ? nlohmann::json(Inside(own.at("mean"), truth.mean,
                                                                                          "ci_low", "ci_high"))
                                                                  : nlohmann::json(nullptr)}};
    return document;
  }

 private:
  NumericRange range_;
  std::optional<AnswerStep> step_;
  std::unique_ptr<const NumericTruth> truth_;
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
  auto truth = ParseNumericTruth(entry, kind.range(), where);
  if (!truth) return MakeError(truth.error());
  return std::unique_ptr<TruthSampler>(std::make_unique<NumericTruthSampler>(kind.range(), kind.answer_step(), std::move(truth).value()));
}

}  // namespace deniable
