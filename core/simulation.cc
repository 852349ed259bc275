#include "core/simulation.h"

#include <algorithm>
#include <cmath>

#include "core/aggregate.h"
#include "core/json_fields.h"
#include "core/report.h"
#include "core/results.h"
#include "core/seeded_random.h"

namespace deniable {
namespace {

// Cumulative weights of each question's true distribution, validated.
Result<std::vector<std::vector<double>>> ParseTruth(const Survey& survey, const nlohmann::json& truth) {
  DENIABLE_TRY(RequireObject(truth, "truth"));
  std::vector<std::vector<double>> cumulative;
  for (const auto& question : survey.questions) {
    const std::string where = "truth." + question.id;
    if (!truth.contains(question.id)) return MakeError(where + ": missing (every question needs a truth)");
    if (question.is_numeric()) {
      return MakeError(where + ": simulate does not support numeric questions yet (categorical truths only)");
    }
    const auto& entry = truth.at(question.id);
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
    cumulative.push_back(std::move(sums));
  }
  for (const auto& item : truth.items()) {
    if (!survey.QuestionIndex(item.key())) return MakeError("truth." + item.key() + ": no question with this id");
  }
  return cumulative;
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

}  // namespace

Result<nlohmann::json> Simulate(const Survey& survey, const nlohmann::json& truth, const SimulationOptions& options) {
  if (options.respondents < 1 || options.respondents > 100000000) {
    return MakeError("respondents must be between 1 and 100000000, but is " + std::to_string(options.respondents));
  }
  auto cumulative = ParseTruth(survey, truth);
  if (!cumulative) return MakeError(cumulative.error());
  SeededRandom random(options.seed);
  SurveyAggregate aggregate(survey);
  std::vector<std::vector<std::int64_t>> true_counts;
  for (const auto& question : survey.questions) true_counts.emplace_back(question.options.size(), 0);
  for (std::int64_t r = 0; r < options.respondents; ++r) {
    nlohmann::json answers = nlohmann::json::object();
    for (std::size_t q = 0; q < survey.questions.size(); ++q) {
      const int answer = DrawAnswer((*cumulative)[q], random);
      ++true_counts[q][static_cast<std::size_t>(answer)];
      answers[survey.questions[q].id] = answer;
    }
    auto report = PerturbAnswers(survey, answers, random);
    if (!report) return MakeError(report.error());
    auto parsed = ParseReport(survey, *report);  // the server's validation, exactly
    if (!parsed) return MakeError("internal: a simulated report failed validation: " + parsed.error());
    aggregate.Add(*parsed);
    if (options.progress && (r + 1) % options.progress_every == 0) options.progress(r + 1);
  }
  auto document = SurveyResultsToJson(survey, aggregate);
  document["seed"] = options.seed;
  for (std::size_t q = 0; q < survey.questions.size(); ++q) {
    document["questions"][q].update(ErrorMetrics(document["questions"][q], true_counts[q], options.respondents));
  }
  return document;
}

}  // namespace deniable
