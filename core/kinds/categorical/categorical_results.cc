#include "core/kinds/categorical/categorical_results.h"

#include <algorithm>
#include <cmath>

#include "core/common/validation.h"
#include "core/frequency/advisor.h"

namespace deniable {
namespace {

// A warning when n is too small for useful estimates: the expected 95%
// half-width (the advisor's planning variance) is too wide.
nlohmann::json SampleSizeWarning(std::int64_t n, double half_width, std::int64_t needed) {
  if (n == 0) return "no reports yet";
  if (half_width <= kUsefulHalfWidth) return nullptr;
  return "n = " + std::to_string(n) + " is too small for useful estimates: a 95% interval is about ±" +
         FormatSignificant(half_width * 100, 2) + " percentage points wide; about " +
         std::to_string(needed) + " respondents give ±5 points";
}

// No reports yet: numbers are undefined, and say so as null (not 0).
nlohmann::json NumberOrNull(double value) { return std::isfinite(value) ? nlohmann::json(value) : nlohmann::json(); }

// The consistent (Norm-Sub) estimate's interval: the unbiased CI (for the
// same target) clipped to [0, 1] (the truth, the population's or these
// respondents' share, is a frequency, so clipping loses no coverage) and
// stretched to hold the consistent estimate. It covers at least as often as
// the CI and never excludes its own estimate: Norm-Sub's shift put the
// consistent estimate outside the CI in up to 14% of options near frequencies
// 0 and 1 (OUE, epsilon 4, k = 2; build/categorical_coverage).
struct ConsistentInterval {
  double low;
  double high;
};
ConsistentInterval ConsistentIntervalOf(const OptionEstimate& option) {
  return {std::min(std::clamp(option.ci_low, 0.0, 1.0), option.consistent_frequency),
          std::max(std::clamp(option.ci_high, 0.0, 1.0), option.consistent_frequency)};
}

}  // namespace

FrequencyEstimate EstimateCategorical(const CategoricalQuestionKind& kind, const CategoricalAggregate& aggregate,
                                      IntervalTarget target) {
  return EstimateFrequencies(aggregate.support_counts(), aggregate.n(), kind.mechanism().probabilities(), target);
}

nlohmann::json CategoricalResultToJson(const CategoricalQuestionKind& kind, const CategoricalAggregate& aggregate,
                                       IntervalTarget target) {
  const auto estimate = EstimateCategorical(kind, aggregate, target);
  auto options = nlohmann::json::array();
  for (std::size_t i = 0; i < estimate.options.size(); ++i) {
    const auto& option = estimate.options[i];
    const ConsistentInterval consistent = ConsistentIntervalOf(option);
    options.push_back({{"label", kind.options()[i]},
                       {"count", NumberOrNull(option.count)},
                       {"frequency", NumberOrNull(option.frequency)},
                       {"std_error", NumberOrNull(option.std_error)},
                       {"ci_low", NumberOrNull(option.ci_low)},
                       {"ci_high", NumberOrNull(option.ci_high)},
                       {"consistent_frequency", NumberOrNull(option.consistent_frequency)},
                       {"consistent_ci_low", NumberOrNull(consistent.low)},
                       {"consistent_ci_high", NumberOrNull(consistent.high)}});
  }
  const auto pq = kind.mechanism().probabilities();
  const std::int64_t n = aggregate.n();
  const double half_width = n > 0 ? kZ95 * std::sqrt(PlanningFrequencyVariance(pq, static_cast<double>(n))) : NAN;
  const auto needed = RequiredSampleSize(pq, 0.05);
  return {{"mechanism", kind.MechanismToJson()},
          {"privacy", kind.PrivacyToJson()},
          {"n", n},
          {"interval_for", IntervalForJson(target)},
          {"options", options},
          {"expected_ci_half_width", NumberOrNull(half_width)},
          {"respondents_for_5_points", needed},
          {"warning", SampleSizeWarning(n, half_width, needed)}};
}

std::vector<CsvRow> CategoricalCsvRows(const nlohmann::json& result) {
  std::vector<CsvRow> rows;
  for (const auto& option : result.at("options")) {
    rows.push_back({option.at("label").get<std::string>(), "frequency", option.at("frequency"), option.at("std_error"),
                    option.at("ci_low"), option.at("ci_high"), option.at("consistent_frequency"), option.at("count")});
  }
  return rows;
}

}  // namespace deniable
