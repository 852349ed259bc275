#include "core/frequency/frequency_estimator.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/frequency/norm_sub.h"

namespace deniable {

double FrequencyVariance(SupportProbabilities pq, double f, double n) {
  const double gap = pq.p - pq.q;
  return (f * pq.p * (1.0 - pq.p) + (1.0 - f) * pq.q * (1.0 - pq.q)) / (n * gap * gap);
}

double PopulationFrequencyVariance(SupportProbabilities pq, double f, double n) {
  const double gap = pq.p - pq.q;
  const double lambda = pq.q + f * gap;  // the share of reports supporting the option
  return lambda * (1.0 - lambda) / (n * gap * gap);
}

double PlanningFrequencyVariance(SupportProbabilities pq, double n) { return PopulationFrequencyVariance(pq, 0.0, n); }

std::int64_t RequiredSampleSize(SupportProbabilities pq, double half_width) {
  // Var(f_hat) = v / n, so the half-width is z sqrt(v / n).
  const double per_respondent = PlanningFrequencyVariance(pq, 1.0);
  return static_cast<std::int64_t>(std::ceil(kZ95 * kZ95 * per_respondent / (half_width * half_width)));
}

FrequencyEstimate EstimateFrequencies(const std::vector<std::int64_t>& support_counts, std::int64_t n,
                                      SupportProbabilities pq, IntervalTarget target) {
  FrequencyEstimate estimate;
  estimate.n = n;
  const double total = static_cast<double>(n);
  const double gap = pq.p - pq.q;
  const double nan = std::numeric_limits<double>::quiet_NaN();
  std::vector<double> frequencies;
  for (std::int64_t count : support_counts) {
    OptionEstimate option{nan, nan, nan, nan, nan, nan};
    if (n > 0) {
      option.count = (static_cast<double>(count) - total * pq.q) / gap;
      option.frequency = option.count / total;
      const double plug_in = std::clamp(option.frequency, 0.0, 1.0);
      option.std_error = std::sqrt(target == IntervalTarget::kPopulation ? PopulationFrequencyVariance(pq, plug_in, total)
                                                                          : FrequencyVariance(pq, plug_in, total));
      option.ci_low = option.frequency - kZ95 * option.std_error;
      option.ci_high = option.frequency + kZ95 * option.std_error;
    }
    frequencies.push_back(option.frequency);
    estimate.options.push_back(option);
  }
  if (n > 0) {
    const auto consistent = NormSub(frequencies, 1.0);
    for (std::size_t i = 0; i < consistent.size(); ++i) estimate.options[i].consistent_frequency = consistent[i];
  }
  return estimate;
}

}  // namespace deniable
