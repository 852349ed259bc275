// The set mechanisms of "choose all that apply" questions compared over k and
// epsilon (core/kinds/multiple/): each option's standard error by the formula
// (frequency_estimator.h's population variance with the mechanism's
// per-value probabilities) and simulated (the sd of the estimates over
// replicate surveys), beside the baseline the issue names: each option's bit
// by symmetric randomized response at epsilon / k (composition over all k
// bits, ignoring the cap).
//
// Population: sets of at most m = 2 options: {} 40%, {0} 30%, {0, 1} 20%,
// and {j} 10% for j uniform in 2..k-1; so option 0's share is 0.5 and a rare
// option's 0.1 / (k - 2). n = 2000 respondents, 200 replicates, seed 7.
//   build/multiple_bench
#include <cmath>
#include <cstdio>
#include <vector>

#include "core/common/seeded_random.h"
#include "core/frequency/frequency_estimator.h"
#include "core/kinds/multiple/set_mechanism.h"

using namespace deniable;

namespace {

constexpr int kN = 2000, kReplicates = 200, kMaxChoices = 2;

std::vector<int> DrawSet(int k, RandomSource& random) {
  const double u = UniformUnit(random);
  if (u < 0.4) return {};
  if (u < 0.7) return {0};
  if (u < 0.9) return {0, 1};
  return {2 + static_cast<int>(UniformBelow(random, static_cast<std::uint64_t>(k - 2)))};
}

struct Row {
  double formula_common, simulated_common, formula_rare, simulated_rare;
};

// Option 0 (share 0.5) and option 2 (a rare one).
Row Measure(const SetMechanism& mechanism, int k, std::uint64_t seed) {
  const auto pq = mechanism.probabilities();
  const double rare = 0.1 / (k - 2);
  SeededRandom random(seed);
  double sum[2] = {0, 0}, squares[2] = {0, 0};
  for (int r = 0; r < kReplicates; ++r) {
    std::vector<std::int64_t> counts(static_cast<std::size_t>(mechanism.outputs()), 0);
    for (int j = 0; j < kN; ++j) {
      const Support support = mechanism.Perturb(DrawSet(k, random), random);
      for (std::size_t i = 0; i < support.size(); ++i) counts[i] += support[i];
    }
    const auto estimate = EstimateFrequencies(counts, kN, pq);
    for (int side = 0; side < 2; ++side) {
      const double f = estimate.options[side == 0 ? 0 : 2].frequency;
      sum[side] += f, squares[side] += f * f;
    }
  }
  const auto sd = [&](int side) {
    const double mean = sum[side] / kReplicates;
    return std::sqrt((squares[side] - kReplicates * mean * mean) / (kReplicates - 1));
  };
  return {std::sqrt(PopulationFrequencyVariance(pq, 0.5, kN)), sd(0), std::sqrt(PopulationFrequencyVariance(pq, rare, kN)),
          sd(1)};
}

}  // namespace

int main() {
  std::printf("Choose all that apply: per-option standard error of a share, n = %d, at most %d chosen, %d replicates\n",
              kN, kMaxChoices, kReplicates);
  std::printf("baseline: each option's bit at eps/k (symmetric RR, composition over all k bits)\n\n");
  std::printf("%4s %5s  %-22s  %10s %10s  %10s %10s  %8s\n", "k", "eps", "mechanism", "SE f=0.5", "simulated",
              "SE rare", "simulated", "vs base");
  std::uint64_t seed = 7;
  for (int k : {4, 16, 64}) {
    for (double epsilon : {0.5, 1.0, 2.0, 4.0}) {
      // The baseline: symmetric bits whose cap is k (d = k), i.e. eps / k per bit.
      const auto baseline = *CreateSetMechanism({SetMechanismKind::kSymmetricBits, k, k, epsilon, 0});
      const Row base = Measure(*baseline, k, ++seed);
      std::printf("%4d %5.1f  %-22s  %10.4f %10.4f  %10.4f %10.4f  %8s\n", k, epsilon, "baseline bits eps/k",
                  base.formula_common, base.simulated_common, base.formula_rare, base.simulated_rare, "1.00");
      for (auto kind : kSetMechanismKinds) {
        const auto mechanism = *CreateSetMechanism({kind, k, kMaxChoices, epsilon, 0});
        const Row row = Measure(*mechanism, k, ++seed);
        std::printf("%4d %5.1f  %-22s  %10.4f %10.4f  %10.4f %10.4f  %8.2f\n", k, epsilon, SetMechanismName(kind).c_str(),
                    row.formula_common, row.simulated_common, row.formula_rare, row.simulated_rare,
                    row.formula_rare / base.formula_rare);
      }
    }
  }
  std::printf("\nvs base: the rare option's SE over the baseline's (below 1: better). The cap m = 2 is what the\n"
              "mechanisms other than the baseline use: bits at eps / min(k, 2m), or one padded item at eps.\n");
  return 0;
}
