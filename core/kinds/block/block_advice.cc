#include "core/kinds/block/block_advice.h"

#include <algorithm>
#include <cmath>

#include "core/frequency/frequency_estimator.h"
#include "core/kinds/block/block_marginals.h"
#include "core/kinds/block/budget_split.h"
#include "core/kinds/block/pmoue.h"
#include "core/survey/interval_target.h"

namespace deniable {
namespace {

constexpr int kShareGrid = 200;  // the shares searched for the largest variance

nlohmann::json ChoiceRow(Sensitivity sensitivity, double epsilon, int options, double n) {
  const double near_zero = BlockSharePopulationVariance(0.0, n, options, epsilon);
  double worst = near_zero;
  for (int i = 1; i <= kShareGrid; ++i) {
    worst = std::max(worst, BlockSharePopulationVariance(static_cast<double>(i) / kShareGrid, n, options, epsilon));
  }
  return {{"sensitivity", SensitivityName(sensitivity)},
          {"epsilon", epsilon},
          {"std_error", std::sqrt(near_zero)},
          {"ci_half_width", kZ95 * std::sqrt(near_zero)},
          {"ci_half_width_worst", kZ95 * std::sqrt(worst)}};
}

}  // namespace

double BlockSharePopulationVariance(double f, double n, int options, double epsilon) {
  const double count_variance = CalibratedCountVariance(n, f * n, options, OueQ(epsilon));
  return (count_variance + SamplingVariance(f * n, n)) / (n * n);
}

nlohmann::json BlockShareAdvice(const BlockDefinition& block, std::int64_t respondents) {
  const double n = static_cast<double>(respondents);
  const std::size_t count = block.attributes.size();
  nlohmann::json attributes = nlohmann::json::array();
  for (std::size_t a = 0; a < count; ++a) {
    nlohmann::json choices = nlohmann::json::array();
    for (Sensitivity sensitivity : {Sensitivity::kUsual, Sensitivity::kMorePrivate, Sensitivity::kLessPrivate}) {
      BlockChoices everyone{std::vector<bool>(count, true), std::vector<double>(count, SensitivityWeight(Sensitivity::kUsual))};
      everyone.weight[a] = SensitivityWeight(sensitivity);
      const double epsilon = SplitBudget(block, everyone)[a];
      choices.push_back(ChoiceRow(sensitivity, epsilon, block.attributes[a].size(), n));
    }
    attributes.push_back({{"id", block.attributes[a].id}, {"options", block.attributes[a].size()}, {"choices", choices}});
  }
  return {{"kind", "block_shares"},
          {"respondents", respondents},
          {"epsilon_per_attribute", block.epsilon_per_attribute},
          {"assumption", "every respondent answers every attribute and makes the same privacy choice for it (the other "
                         "attributes usual); calibrated estimation, the default"},
          {"interval_for", IntervalForJson(IntervalTarget::kPopulation)},
          {"attributes", attributes}};
}

}  // namespace deniable
