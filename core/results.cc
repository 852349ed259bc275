#include "core/results.h"

#include <cmath>

#include "core/validation.h"

namespace deniable {
namespace {

// A warning when n is too small for useful estimates: the expected 95%
// half-width (the advisor's planning variance) is too wide.
nlohmann::json SampleSizeWarning(std::int64_t n, double half_width,
                                 std::int64_t needed) {
  if (n == 0) return "no reports yet";
  if (half_width <= kUsefulHalfWidth) return nullptr;
  return "n = " + std::to_string(n) + " is too small for useful estimates: a 95% interval is about +-" +
         FormatNumber(std::round(half_width * 1000) / 10) + " percentage points wide; about " +
         std::to_string(needed) + " respondents give +-5 points";
}

// No reports yet: numbers are undefined, and say so as null (not 0).
nlohmann::json NumberOrNull(double value) { return std::isfinite(value) ? nlohmann::json(value) : nlohmann::json(); }

}  // namespace

FrequencyEstimate EstimateQuestion(const Question& question, const QuestionAggregate& aggregate) {
  return EstimateFrequencies(aggregate.support_counts, aggregate.n, question.mechanism->probabilities());
}

nlohmann::json QuestionResultToJson(const Question& question, const QuestionAggregate& aggregate) {
  const auto estimate = EstimateQuestion(question, aggregate);
  auto options = nlohmann::json::array();
  for (std::size_t i = 0; i < estimate.options.size(); ++i) {
    const auto& option = estimate.options[i];
    options.push_back({{"label", question.options[i]},
                       {"count", NumberOrNull(option.count)},
                       {"frequency", NumberOrNull(option.frequency)},
                       {"std_error", NumberOrNull(option.std_error)},
                       {"ci_low", NumberOrNull(option.ci_low)},
                       {"ci_high", NumberOrNull(option.ci_high)},
                       {"consistent_frequency", NumberOrNull(option.consistent_frequency)}});
  }
  const auto pq = question.mechanism->probabilities();
  const double half_width =
      aggregate.n > 0 ? kZ95 * std::sqrt(PlanningFrequencyVariance(pq, static_cast<double>(aggregate.n))) : NAN;
  const auto needed = RequiredSampleSize(pq, 0.05);
  return {{"id", question.id},
          {"text", question.text},
          {"type", "categorical"},
          {"mechanism", MechanismToJson(*question.mechanism)},
          {"privacy", PrivacyToJson(*question.mechanism)},
          {"n", aggregate.n},
          {"options", options},
          {"expected_ci_half_width", NumberOrNull(half_width)},
          {"respondents_for_5_points", needed},
          {"warning", SampleSizeWarning(aggregate.n, half_width, needed)}};
}

bool ResultsNeedEstimation(const Survey& survey, const SurveyAggregate& aggregate) {
  for (std::size_t q = 0; q < survey.questions.size(); ++q) {
    if (survey.questions[q].is_numeric() && aggregate.questions()[q].n > 0) return true;
  }
  return false;
}

nlohmann::json SurveyResultsToJson(const Survey& survey, const SurveyAggregate& aggregate,
                                   const NumericEstimateOptions& numeric, const std::function<bool()>& cancelled) {
  auto questions = nlohmann::json::array();
  for (std::size_t q = 0; q < survey.questions.size(); ++q) {
    const Question& question = survey.questions[q];
    if (!question.is_numeric()) {
      questions.push_back(QuestionResultToJson(question, aggregate.questions()[q]));
      continue;
    }
    auto result = NumericQuestionResultToJson(question, aggregate.questions()[q], numeric, cancelled);
    questions.push_back(result ? *result : nlohmann::json{{"id", question.id}, {"type", "numeric"},
                                                          {"error", result.error()}});
  }
  const auto total = TotalEpsilon(survey);
  nlohmann::json document = {{"survey", survey.id},
                             {"version", survey.version},
                             {"title", survey.title},
                             {"respondents", aggregate.respondents()},
                             {"total_epsilon", total ? nlohmann::json(*total) : nlohmann::json(nullptr)},
                             {"questions", questions}};
  if (!total) {
    document["total_epsilon_note"] = "no formal epsilon: at least one question uses a mechanism without one (the pure "
                                     "negative survey or the published RVNS)";
  }
  return document;
}

}  // namespace deniable
