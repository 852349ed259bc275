// The power analysis for comparing two groups' shares
// (core/kinds/categorical/group_power.h) against simulation: at the n it computes, the
// two-sided Wald test on the question's own estimates (population intervals)
// rejects at the wanted rate.
#include <doctest.h>

#include <cmath>

#include "core/kinds/categorical/group_power.h"
#include "core/common/seeded_random.h"
#include "core/frequency/frequency_estimator.h"
#include "core/kinds/categorical/categorical_question_kind.h"

namespace deniable {
namespace {

// One group's estimate of option 1's share, from n respondents with share f,
// through the real mechanism and the question's estimator.
OptionEstimate DrawGroup(const CategoricalMechanism& mechanism, double f, std::int64_t n, RandomSource& random) {
  std::vector<std::int64_t> counts(mechanism.options(), 0);
  for (std::int64_t i = 0; i < n; ++i) {
    const int answer = Bernoulli(random, f) ? 1 : 0;
    const Support support = *mechanism.Perturb(answer, random);
    for (std::size_t j = 0; j < support.size(); ++j) counts[j] += support[j];
  }
  return EstimateFrequencies(counts, n, mechanism.probabilities()).options[1];
}

// The share of `trials` simulated studies whose difference is significant.
double SimulatedPower(const CategoricalMechanism& mechanism, const GroupPowerRequest& request, std::int64_t n1,
                      std::int64_t n2, int trials, std::uint64_t seed) {
  SeededRandom random(seed);
  const double z = 1.959963984540054;
  int rejections = 0;
  for (int t = 0; t < trials; ++t) {
    const OptionEstimate a = DrawGroup(mechanism, request.p1, n1, random);
    const OptionEstimate b = DrawGroup(mechanism, request.p2, n2, random);
    const double se = std::sqrt(a.std_error * a.std_error + b.std_error * b.std_error);
    rejections += std::abs(b.frequency - a.frequency) > z * se;
  }
  return static_cast<double>(rejections) / trials;
}

void CheckAgainstSimulation(CategoricalParams params, const GroupPowerRequest& request, std::uint64_t seed) {
  auto mechanism = CreateCategoricalMechanism(params);
  REQUIRE(mechanism);
  const GroupPowerPlan plan = PlanGroupComparison((*mechanism)->probabilities(), request);
  CAPTURE(plan.n1);
  CAPTURE(plan.n2);
  CHECK(plan.achieved_power >= request.power);
  const int trials = 1500;
  const double simulated = SimulatedPower(**mechanism, request, plan.n1, plan.n2, trials, seed);
  // Monte Carlo tolerance: 3.5 binomial standard deviations of the simulated
  // rate around the computed power (false failure < 5e-4).
  const double tolerance = 3.5 * std::sqrt(plan.achieved_power * (1 - plan.achieved_power) / trials);
  CAPTURE(simulated);
  CHECK(std::abs(simulated - plan.achieved_power) < tolerance);
}

TEST_CASE("rr group power: the computed n gives 80% power in simulation (GRR k = 2, epsilon ln 3)") {
  CheckAgainstSimulation({CategoricalKind::kGrr, 2, std::log(3.0), 1}, {0.2, 0.3, 0.8, 0.05, 0.5}, 21);
}

TEST_CASE("rr group power: unequal groups and a rare share (OUE k = 4, epsilon 2)") {
  CheckAgainstSimulation({CategoricalKind::kOue, 4, 2.0, 1}, {0.05, 0.15, 0.8, 0.05, 0.3}, 22);
}

TEST_CASE("rr group power: the advice document") {
  const nlohmann::json question = {{"id", "drugs"},
                                   {"text", "Used drugs?"},
                                   {"type", "categorical"},
                                   {"options", {"no", "yes"}},
                                   {"mechanism", {{"name", "grr"}, {"epsilon", std::log(3.0)}}}};
  auto kind = CategoricalQuestionKind::Parse(question, "questions[0]");
  REQUIRE(kind);
  auto advice = GroupComparisonPower(**kind, {0.2, 0.3, 0.8, 0.05, 0.5});
  REQUIRE(advice);
  const auto& json = *advice;
  // The formula by hand: p - q = 1/2, lambda = 0.35 and 0.40.
  const double v1 = 0.35 * 0.65 / 0.25, v2 = 0.4 * 0.6 / 0.25;
  const double z = 1.959963984540054 + 0.8416212335729143;
  const double total = z * z * (v1 / 0.5 + v2 / 0.5) / 0.01;
  CHECK(json["n_per_group"][0] == static_cast<std::int64_t>(std::ceil(total / 2)));
  CHECK(json["n_total"] == 2 * static_cast<std::int64_t>(std::ceil(total / 2)));
  CHECK(json["optimal_allocation"].get<double>() == doctest::Approx(std::sqrt(v1) / (std::sqrt(v1) + std::sqrt(v2))));
  CHECK(json["n_total_at_optimal"].get<std::int64_t>() <= json["n_total"].get<std::int64_t>());
  // Without randomisation: f (1 - f) per respondent, far fewer.
  const double plain = z * z * (0.16 / 0.5 + 0.21 / 0.5) / 0.01;
  CHECK(json["without_randomisation"]["n_per_group"][0] == static_cast<std::int64_t>(std::ceil(plain / 2)));

  SUBCASE("errors name the field") {
    CHECK(GroupComparisonPower(**kind, {0.2, 0.2, 0.8, 0.05, 0.5}).error().rfind("p2:", 0) == 0);
    CHECK(GroupComparisonPower(**kind, {0.2, 1.3, 0.8, 0.05, 0.5}).error().rfind("p2 must be", 0) == 0);
    CHECK(GroupComparisonPower(**kind, {0.2, 0.3, 0.3, 0.05, 0.5}).error().rfind("power must be", 0) == 0);
    CHECK(GroupComparisonPower(**kind, {0.2, 0.3, 0.8, 0.05, 1.0}).error().rfind("allocation must be", 0) == 0);
  }
}

TEST_CASE("rr group power: the request from JSON") {
  auto request = ParseGroupPowerRequest({{"p1", 0.1}, {"p2", 0.2}, {"allocation", 0.4}});
  REQUIRE(request);
  CHECK(request->p1 == 0.1);
  CHECK(request->p2 == 0.2);
  CHECK(request->power == 0.8);
  CHECK(request->alpha == 0.05);
  CHECK(request->allocation == 0.4);
  CHECK(ParseGroupPowerRequest({{"p1", 0.1}}).error() == "p2: required (a share in [0, 1])");
  CHECK(ParseGroupPowerRequest({{"p1", 0.1}, {"p2", "0.2"}}).error() == "p2: must be a number");
}

}  // namespace
}  // namespace deniable
