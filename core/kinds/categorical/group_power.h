// Design: how many respondents a comparison of two groups' shares needs under
// a categorical mechanism (rr's power.rr.test, for Deniable's mechanisms).
//
// Each group's share of an option is estimated by the question's unbiased
// estimator (frequency_estimator.h), whose variance for the population is
// PopulationFrequencyVariance: lambda (1 - lambda) / (n (p - q)^2), lambda =
// q + f (p - q), sampling and randomisation together, as the advisor uses.
// The groups are compared by the two-sided Wald test of the difference
// (f1_hat - f2_hat) / sqrt(se1^2 + se2^2), the test a breakdown's difference
// interval makes. With group 1 a share `a` of N respondents and v(f) the
// variance of one respondent,
//     N = (z_{1 - alpha/2} + z_power)^2 (v(p1) / a + v(p2) / (1 - a)) / d^2,
// d = p2 - p1 (the far tail's rejections are ignored, as is usual; the power
// reported at the rounded n counts both tails). The allocation that needs the
// fewest respondents gives each group a share proportional to sqrt(v)
// (Neyman); the same comparison without randomisation (v = f (1 - f)) is
// given beside it, so the cost of the privacy is seen.
#pragma once

#include <nlohmann/json.hpp>

#include "core/common/result.h"
#include "core/frequency/categorical_mechanism.h"
#include "core/survey/question_kind.h"

namespace deniable {

struct GroupPowerRequest {
  double p1 = 0;                 // the first group's share of the option
  double p2 = 0;                 // the second's
  double power = 0.8;            // wanted probability of rejecting "no difference"
  double alpha = 0.05;           // two-sided level
  double allocation = 0.5;       // the first group's share of the respondents
};

struct GroupPowerPlan {
  std::int64_t n1 = 0, n2 = 0;   // respondents per group (rounded up)
  double achieved_power = 0;     // at n1, n2 (both tails)
};

// The plan for a mechanism with support probabilities `pq` (for the identity
// p = 1, q = 0: no randomisation). The request must be valid (see below).
GroupPowerPlan PlanGroupComparison(SupportProbabilities pq, const GroupPowerRequest& request);

// The power of the test with n1 and n2 respondents.
double ComparisonPowerAt(SupportProbabilities pq, const GroupPowerRequest& request, double n1, double n2);

// The advice for a categorical question (the builder's definition parsed):
// {"test", "p1", "p2", "difference", "power", "alpha", "allocation",
//  "mechanism", "epsilon", "n_per_group": [n1, n2], "n_total", "achieved_power",
//  "optimal_allocation", "n_total_at_optimal", "without_randomisation":
//  {"n_per_group", "n_total"}}. Errors name the field: p1 and p2 in [0, 1] and
// different, power in [0.5, 0.999], alpha in [0.001, 0.5], allocation in
// [0.05, 0.95], and a categorical question.
Result<nlohmann::json> GroupComparisonPower(const QuestionKind& kind, const GroupPowerRequest& request);

// The request from JSON (an advice request's body): {"p1", "p2"} required,
// "power" (default 0.8), "alpha" (0.05), "allocation" (0.5) optional, all
// numbers; errors name the field. The ranges are checked by GroupComparisonPower.
Result<GroupPowerRequest> ParseGroupPowerRequest(const nlohmann::json& body);

}  // namespace deniable
