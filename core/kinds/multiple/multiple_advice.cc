#include "core/kinds/multiple/multiple_advice.h"

#include <algorithm>
#include <cmath>

#include "core/common/validation.h"
#include "core/frequency/frequency_estimator.h"
#include "core/kinds/multiple/set_mechanism.h"

namespace deniable {

SetAdvice AdviseSet(int options, int max_choices, double epsilon, std::int64_t respondents) {
  SetAdvice advice{options, max_choices, epsilon, respondents, {}, "", ""};
  const double n = static_cast<double>(std::max<std::int64_t>(respondents, 1));
  for (auto kind : kSetMechanismKinds) {
    const auto mechanism = CreateSetMechanism({kind, options, max_choices, epsilon, 0});
    if (!mechanism) continue;
    const auto pq = (*mechanism)->probabilities();
    const double se = std::sqrt(PlanningFrequencyVariance(pq, n));
    advice.mechanisms.push_back({SetMechanismName(kind), se, std::sqrt(PopulationFrequencyVariance(pq, 0.5, n)),
                                 kZ95 * se, RequiredSampleSize(pq, 0.05)});
  }
  const auto best = std::min_element(advice.mechanisms.begin(), advice.mechanisms.end(),
                                     [](const auto& a, const auto& b) { return a.std_error < b.std_error; });
  advice.recommended = best->mechanism;
  double runner_up = INFINITY;
  for (const auto& item : advice.mechanisms) {
    if (item.mechanism != best->mechanism) runner_up = std::min(runner_up, item.std_error);
  }
  advice.reason = "the smallest standard error of a rare option's share at k = " + std::to_string(options) +
                  ", at most " + std::to_string(max_choices) + " chosen and epsilon " + FormatSignificant(epsilon, 3) +
                  " (" + FormatSignificant(best->std_error, 2) + " against " + FormatSignificant(runner_up, 2) +
                  " for the next best, at n = " + std::to_string(respondents) + ")";
  return advice;
}

nlohmann::json SetAdviceToJson(const SetAdvice& advice) {
  auto mechanisms = nlohmann::json::array();
  for (const auto& item : advice.mechanisms) {
    mechanisms.push_back({{"mechanism", item.mechanism},
                          {"std_error", item.std_error},
                          {"std_error_at_half", item.std_error_at_half},
                          {"ci_half_width", item.ci_half_width},
                          {"n_for_5_points", item.n_for_5_points}});
  }
  return {{"options", advice.options},         {"max_choices", advice.max_choices},
          {"epsilon", advice.epsilon},         {"respondents", advice.respondents},
          {"mechanisms", mechanisms},          {"recommended", advice.recommended},
          {"reason", advice.reason}};
}

}  // namespace deniable
