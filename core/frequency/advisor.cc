#include "core/frequency/advisor.h"

#include <cmath>
#include <limits>

#include "core/frequency/categorical_mechanism.h"
#include "core/frequency/frequency_estimator.h"
#include "core/common/validation.h"

namespace deniable {
namespace {

MechanismAdvice AdviseOne(const CategoricalMechanism& mechanism, std::int64_t respondents) {
  const auto pq = mechanism.probabilities();
  const double se = std::sqrt(PlanningFrequencyVariance(pq, static_cast<double>(respondents)));
  return {CategoricalKindName(mechanism.params().kind), mechanism.epsilon(), se, kZ95 * se,
          RequiredSampleSize(pq, 0.05)};
}

}  // namespace

Result<Advice> Advise(int options, double epsilon, std::int64_t respondents) {
  if (auto s = ValidateIntInRange(options, 2, 4096, "options"); !s) return MakeError(s.error());
  if (auto s = ValidateEpsilon(epsilon); !s) return MakeError(s.error());
  if (auto s = ValidateIntInRange(respondents, 1, std::numeric_limits<std::int32_t>::max(), "respondents"); !s) {
    return MakeError(s.error());
  }
  Advice advice{options, epsilon, respondents, {}, "", ""};
  // The candidates: every mechanism at this epsilon (negative survey with s = 1).
  for (auto kind : {CategoricalKind::kGrr, CategoricalKind::kOue, CategoricalKind::kSue,
                    CategoricalKind::kNegativeSurvey}) {
    auto mechanism = CreateCategoricalMechanism({kind, options, epsilon, 1});
    if (mechanism) advice.mechanisms.push_back(AdviseOne(**mechanism, respondents));
  }
  const MechanismAdvice* best = &advice.mechanisms.front();
  for (const auto& candidate : advice.mechanisms) {
    // Ties keep the earlier, simpler mechanism (for k = 2 the negative survey
    // is GRR with the labels swapped); the margin absorbs rounding.
    if (candidate.std_error < best->std_error * (1.0 - 1e-9)) best = &candidate;
  }
  advice.recommended = best->mechanism;
  const double threshold = 3.0 * std::exp(epsilon) + 2.0;
  advice.reason = "lowest expected standard error at epsilon " + FormatNumber(epsilon) + " with " +
                  std::to_string(options) + " options (GRR beats OUE when k < 3e^eps + 2 = " +
                  FormatNumber(std::round(threshold * 100) / 100) + ")";
  // The pure negative survey, for reference: no finite epsilon.
  if (options >= 3) {
    auto pure = CreateCategoricalMechanism({CategoricalKind::kNegativeSurvey, options, std::nullopt, 1});
    if (pure) advice.mechanisms.push_back(AdviseOne(**pure, respondents));
  }
  return advice;
}

nlohmann::json AdviceToJson(const Advice& advice) {
  auto mechanisms = nlohmann::json::array();
  for (const auto& candidate : advice.mechanisms) {
    mechanisms.push_back({{"mechanism", candidate.mechanism},
                          {"epsilon", candidate.epsilon ? nlohmann::json(*candidate.epsilon) : nlohmann::json()},
                          {"std_error", candidate.std_error},
                          {"ci_half_width", candidate.ci_half_width},
                          {"n_for_5_points", candidate.n_for_5_points}});
  }
  return {{"options", advice.options},
          {"epsilon", advice.epsilon},
          {"respondents", advice.respondents},
          {"mechanisms", mechanisms},
          {"recommended", advice.recommended},
          {"reason", advice.reason}};
}

}  // namespace deniable
