#include "core/kinds/categorical/group_power.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "core/common/validation.h"
#include "core/frequency/frequency_estimator.h"
#include "core/kinds/categorical/categorical_question_kind.h"
#include "core/numeric/gaussian_pdp.h"

namespace deniable {
namespace {

// One respondent's variance of the unbiased share (n = 1).
double UnitVariance(SupportProbabilities pq, double f) { return PopulationFrequencyVariance(pq, f, 1.0); }

// Total respondents N of the normal approximation (before rounding).
double TotalRespondents(SupportProbabilities pq, const GroupPowerRequest& request, double allocation) {
  const double z = PortableNormalQuantile(1 - request.alpha / 2) + PortableNormalQuantile(request.power);
  const double d = request.p2 - request.p1;
  const double variance =
      UnitVariance(pq, request.p1) / allocation + UnitVariance(pq, request.p2) / (1 - allocation);
  return z * z * variance / (d * d);
}

// A group needs two respondents for a variance at all.
std::int64_t RoundUp(double n) { return std::max<std::int64_t>(2, static_cast<std::int64_t>(std::ceil(n - 1e-9))); }

Status CheckInRange(double value, double low, double high, const std::string& name) {
  if (!std::isfinite(value) || value < low || value > high) {
    return MakeError(name + " must be in [" + FormatNumber(low) + ", " + FormatNumber(high) + "], but is " +
                     FormatNumber(value));
  }
  return OkStatus();
}

Status ValidateRequest(const GroupPowerRequest& request) {
  DENIABLE_TRY(CheckInRange(request.p1, 0, 1, "p1"));
  DENIABLE_TRY(CheckInRange(request.p2, 0, 1, "p2"));
  if (std::abs(request.p2 - request.p1) < 1e-6) return MakeError("p2: must differ from p1 (by at least 1e-6)");
  DENIABLE_TRY(CheckInRange(request.power, 0.5, 0.999, "power"));
  DENIABLE_TRY(CheckInRange(request.alpha, 0.001, 0.5, "alpha"));
  DENIABLE_TRY(CheckInRange(request.allocation, 0.05, 0.95, "allocation"));
  return OkStatus();
}

nlohmann::json PlanToJson(const GroupPowerPlan& plan) {
  return {{"n_per_group", {plan.n1, plan.n2}}, {"n_total", plan.n1 + plan.n2}, {"achieved_power", plan.achieved_power}};
}

}  // namespace

double ComparisonPowerAt(SupportProbabilities pq, const GroupPowerRequest& request, double n1, double n2) {
  const double sd = std::sqrt(UnitVariance(pq, request.p1) / n1 + UnitVariance(pq, request.p2) / n2);
  const double shift = std::abs(request.p2 - request.p1) / sd;
  const double z = PortableNormalQuantile(1 - request.alpha / 2);
  return FastNormalCdf(shift - z) + FastNormalCdf(-shift - z);
}

GroupPowerPlan PlanGroupComparison(SupportProbabilities pq, const GroupPowerRequest& request) {
  const double total = TotalRespondents(pq, request, request.allocation);
  GroupPowerPlan plan{RoundUp(request.allocation * total), RoundUp((1 - request.allocation) * total), 0};
  plan.achieved_power = ComparisonPowerAt(pq, request, static_cast<double>(plan.n1), static_cast<double>(plan.n2));
  return plan;
}

Result<nlohmann::json> GroupComparisonPower(const QuestionKind& kind, const GroupPowerRequest& request) {
  DENIABLE_TRY(ValidateRequest(request));
  const auto* categorical = dynamic_cast<const CategoricalQuestionKind*>(&kind);
  if (categorical == nullptr || kind.trust() != Trust::kLocal) {
    return MakeError("question: a power analysis for two groups needs a randomised categorical question");
  }
  const SupportProbabilities pq = categorical->mechanism().probabilities();
  const GroupPowerPlan plan = PlanGroupComparison(pq, request);
  // Neyman: group shares proportional to the square roots of the variances.
  const double s1 = std::sqrt(UnitVariance(pq, request.p1)), s2 = std::sqrt(UnitVariance(pq, request.p2));
  GroupPowerRequest optimal = request;
  optimal.allocation = s1 / (s1 + s2);
  const GroupPowerPlan best = PlanGroupComparison(pq, optimal);
  const GroupPowerPlan plain = PlanGroupComparison({1.0, 0.0}, request);

  nlohmann::json result = {
      {"test", "two-sided Wald test of the difference between the groups' unbiased shares, with their population "
               "variances (sampling and randomisation)"},
      {"p1", request.p1},
      {"p2", request.p2},
      {"difference", request.p2 - request.p1},
      {"power", request.power},
      {"alpha", request.alpha},
      {"allocation", request.allocation},
      {"mechanism", kind.MechanismToJson()},
      {"epsilon", kind.epsilon() ? nlohmann::json(*kind.epsilon()) : nlohmann::json()},
      {"optimal_allocation", optimal.allocation},
      {"n_total_at_optimal", best.n1 + best.n2},
      {"without_randomisation", PlanToJson(plain)}};
  result.update(PlanToJson(plan));
  return result;
}

Result<GroupPowerRequest> ParseGroupPowerRequest(const nlohmann::json& body) {
  if (!body.is_object()) return MakeError("power: must be an object with p1 and p2");
  GroupPowerRequest request;
  const std::pair<const char*, double*> fields[] = {{"p1", &request.p1},
                                                    {"p2", &request.p2},
                                                    {"power", &request.power},
                                                    {"alpha", &request.alpha},
                                                    {"allocation", &request.allocation}};
  for (const auto& [name, target] : fields) {
    const bool required = std::string(name) == "p1" || std::string(name) == "p2";
    if (!body.contains(name)) {
      if (required) return MakeError(std::string(name) + ": required (a share in [0, 1])");
      continue;
    }
    if (!body.at(name).is_number()) return MakeError(std::string(name) + ": must be a number");
    *target = body.at(name).get<double>();
  }
  return request;
}

}  // namespace deniable
