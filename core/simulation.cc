#include "core/simulation.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <vector>

#include "core/aggregate.h"
#include "core/empirical_comparison.h"
#include "core/json_fields.h"
#include "core/numeric_truth.h"
#include "core/report.h"
#include "core/results.h"
#include "core/seeded_random.h"

namespace deniable {
namespace {

// A question's true answer distribution: categorical weights or a numeric truth.
struct QuestionTruth {
  std::vector<double> cumulative;               // categorical
  std::unique_ptr<const NumericTruth> numeric;  // numeric
};

Result<std::vector<double>> ParseCategoricalTruth(const Question& question, const nlohmann::json& entry,
                                                  const std::string& where) {
  DENIABLE_TRY(RequireObject(entry, where));
  DENIABLE_TRY(RejectUnknownFields(entry, {"frequencies"}, where));
  const auto& weights = entry.contains("frequencies") ? entry.at("frequencies") : nlohmann::json();
  if (!weights.is_array() || weights.size() != question.options.size()) {
    return MakeError(where + ".frequencies: must be an array of " + std::to_string(question.options.size()) +
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
  return sums;
}

Result<std::vector<QuestionTruth>> ParseTruth(const Survey& survey, const nlohmann::json& truth) {
  DENIABLE_TRY(RequireObject(truth, "truth"));
  std::vector<QuestionTruth> truths;
  for (const auto& question : survey.questions) {
    const std::string where = "truth." + question.id;
    if (!truth.contains(question.id)) return MakeError(where + ": missing (every question needs a truth)");
    QuestionTruth parsed;
    if (question.is_numeric()) {
      auto numeric = ParseNumericTruth(truth.at(question.id), question.range, where);
      if (!numeric) return MakeError(numeric.error());
      parsed.numeric = std::move(numeric).value();
    } else {
      auto cumulative = ParseCategoricalTruth(question, truth.at(question.id), where);
      if (!cumulative) return MakeError(cumulative.error());
      parsed.cumulative = std::move(cumulative).value();
    }
    truths.push_back(std::move(parsed));
  }
  for (const auto& item : truth.items()) {
    if (!survey.QuestionIndex(item.key())) return MakeError("truth." + item.key() + ": no question with this id");
  }
  return truths;
}

int DrawAnswer(const std::vector<double>& cumulative, RandomSource& random) {
  const double u = UniformUnit(random);
  const auto it = std::upper_bound(cumulative.begin(), cumulative.end(), u);
  return static_cast<int>(std::min<std::ptrdiff_t>(it - cumulative.begin(),
                                                   static_cast<std::ptrdiff_t>(cumulative.size()) - 1));
}

nlohmann::json ErrorMetrics(const nlohmann::json& result, const std::vector<std::int64_t>& true_counts,
                            std::int64_t n) {
  double l1 = 0.0, linf = 0.0, mse = 0.0, consistent_l1 = 0.0;
  int covered = 0;
  auto truth = nlohmann::json::array();
  for (std::size_t i = 0; i < true_counts.size(); ++i) {
    const double f = static_cast<double>(true_counts[i]) / static_cast<double>(n);
    truth.push_back(f);
    const auto& option = result["options"][i];
    const double error = option["frequency"].get<double>() - f;
    l1 += std::fabs(error);
    linf = std::max(linf, std::fabs(error));
    mse += error * error;
    consistent_l1 += std::fabs(option["consistent_frequency"].get<double>() - f);
    covered += (option["ci_low"].get<double>() <= f && f <= option["ci_high"].get<double>()) ? 1 : 0;
  }
  return {{"truth", truth},
          {"errors", {{"l1", l1},
                      {"linf", linf},
                      {"mse", mse / static_cast<double>(true_counts.size())},
                      {"consistent_l1", consistent_l1},
                      {"ci_coverage", static_cast<double>(covered) / static_cast<double>(true_counts.size())}}}};
}

// The reconstructed distribution as the results document shows it: the
// density on m equal display cells (mass = density x cell width). With the
// default options (200 display points over 100 estimation cells) every
// estimation cell is split in two, so this is the estimate exactly; other
// choices re-bin it (numeric_results.h), which is what the analyst sees.
Result<GridDistribution> ShownDistribution(const Question& question, const nlohmann::json& result) {
  const auto& density = result.at("density").at("value");
  const double cell = question.range.width() / static_cast<double>(density.size());
  std::vector<double> masses;
  for (const auto& value : density) masses.push_back(value.get<double>() * cell);
  return MakeGridDistribution(question.range, std::move(masses));
}

bool Inside(const nlohmann::json& interval, double value, const char* low, const char* high) {
  return interval.at(low).is_number() && interval.at(high).is_number() && interval.at(low).get<double>() <= value &&
         value <= interval.at(high).get<double>();
}

double AbsoluteError(const nlohmann::json& statistics, const char* name, double truth) {
  return std::fabs(statistics.at(name).at("value").get<double>() - truth);
}

nlohmann::json NumericErrorMetrics(const Question& question, const nlohmann::json& result,
                                   std::vector<double> answers) {
  std::sort(answers.begin(), answers.end());
  const SampleSummary truth = SummarizeSample(answers);
  nlohmann::json document = {{"truth",
                               {{"mean", truth.mean},
                                {"std_dev", truth.standard_deviation},
                                {"median", truth.median},
                                {"lower_quartile", truth.lower_quartile},
                                {"upper_quartile", truth.upper_quartile}}},
                              {"errors", nullptr}};
  if (!result.contains("density")) return document;  // the estimator failed: the result carries its error
  auto shown = ShownDistribution(question, result);
  if (!shown) return document;
  const auto& statistics = result.at("statistics");
  const auto& unbiased = result.at("unbiased_mean");
  document["errors"] = {
      {"wasserstein1", Wasserstein1ToSample(*shown, answers)},
      {"mean", AbsoluteError(statistics, "mean", truth.mean)},
      {"std_dev", AbsoluteError(statistics, "std_dev", truth.standard_deviation)},
      {"median", AbsoluteError(statistics, "median", truth.median)},
      {"mean_covered", Inside(statistics.at("mean"), truth.mean, "low", "high")},
      {"unbiased_mean_covered",
       unbiased.is_null() ? nlohmann::json(nullptr) : nlohmann::json(Inside(unbiased, truth.mean, "ci_low", "ci_high"))}};
  return document;
}

// One simulated respondent's true answers, recorded for the comparison.
Result<nlohmann::json> DrawAnswers(const Survey& survey, const std::vector<QuestionTruth>& truths,
                                   RandomSource& random, std::vector<std::vector<std::int64_t>>& counts,
                                   std::vector<std::vector<double>>& values) {
  nlohmann::json answers = nlohmann::json::object();
  for (std::size_t q = 0; q < survey.questions.size(); ++q) {
    if (truths[q].numeric) {
      auto answer = truths[q].numeric->Draw(random);
      if (!answer) return MakeError(answer.error());
      values[q].push_back(*answer);
      answers[survey.questions[q].id] = *answer;
    } else {
      const int answer = DrawAnswer(truths[q].cumulative, random);
      ++counts[q][static_cast<std::size_t>(answer)];
      answers[survey.questions[q].id] = answer;
    }
  }
  return answers;
}

}  // namespace

Result<nlohmann::json> Simulate(const Survey& survey, const nlohmann::json& truth, const SimulationOptions& options) {
  if (options.respondents < 1 || options.respondents > 100000000) {
    return MakeError("respondents must be between 1 and 100000000, but is " + std::to_string(options.respondents));
  }
  auto truths = ParseTruth(survey, truth);
  if (!truths) return MakeError(truths.error());
  for (const auto& question : survey.questions) {
    if (!question.is_numeric()) continue;
    const Status valid = ValidateNumericEstimateOptions(question, options.numeric);
    if (!valid.ok()) return MakeError("question " + question.id + ": " + valid.error());
  }
  SeededRandom random(options.seed);
  SurveyAggregate aggregate(survey);
  std::vector<std::vector<std::int64_t>> true_counts;
  std::vector<std::vector<double>> true_values(survey.questions.size());
  for (const auto& question : survey.questions) true_counts.emplace_back(question.options.size(), 0);
  for (std::int64_t r = 0; r < options.respondents; ++r) {
    auto answers = DrawAnswers(survey, *truths, random, true_counts, true_values);
    if (!answers) return MakeError(answers.error());
    auto report = PerturbAnswers(survey, *answers, random);
    if (!report) return MakeError(report.error());
    auto parsed = ParseReport(survey, *report);  // the server's validation, exactly
    if (!parsed) return MakeError("internal: a simulated report failed validation: " + parsed.error());
    aggregate.Add(*parsed);
    if (options.progress && (r + 1) % options.progress_every == 0) options.progress(r + 1);
  }
  auto document = SurveyResultsToJson(survey, aggregate, options.numeric);
  document["seed"] = options.seed;
  for (std::size_t q = 0; q < survey.questions.size(); ++q) {
    const Question& question = survey.questions[q];
    auto& result = document["questions"][q];
    if (question.is_numeric()) {
      result.update(NumericErrorMetrics(question, result, std::move(true_values[q])));
    } else {
      result.update(ErrorMetrics(result, true_counts[q], options.respondents));
    }
  }
  return document;
}

}  // namespace deniable
