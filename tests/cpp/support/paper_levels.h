// The levels mechanism in the paper's configuration, and the counts its reports
// give, for the tests of core/numeric/levels/ (seed 003).
#pragma once

#include <doctest/doctest.h>

#include <cstdint>
#include <memory>
#include <vector>

#include "core/common/random_source.h"
#include "core/numeric/levels/hiera_estimator.h"
#include "core/numeric/levels/levels_mechanism.h"

namespace deniable::testing {

// The paper's configuration (digest §5.2): [-1, 1] in five equal intervals,
// budgets (5, 4, 3, 2, 1) x base.
inline std::unique_ptr<const LevelsMechanism> PaperLevels(double base, LevelsVariant variant = LevelsVariant::kPaper) {
  auto made = CreateLevels({-1.0, 1.0}, {-0.6, -0.2, 0.2, 0.6},
                           {5 * base, 4 * base, 3 * base, 2 * base, base}, variant);
  REQUIRE(made.ok());
  return std::move(made).value();
}

// The analytic per-respondent variance of HierA's unclamped estimate on
// [-1, 1] for reuse mu (digest §3.6), averaged over uniform answers.
inline double UniformHierAVariance(const LevelsMechanism& levels, int reuse) {
  const int points = 20000;
  double total = 0.0;
  for (int i = 0; i < points; ++i) total += levels.MeanVariance(-1.0 + 2.0 * (i + 0.5) / points, reuse);
  return total / points;
}

// Each answer's report, perturbed, counted per level and bit.
inline LevelBitCounts CountReports(const LevelsMechanism& levels, const std::vector<double>& answers,
                                   RandomSource& random) {
  const int k = levels.partition().levels();
  LevelBitCounts counts{std::vector<std::int64_t>(k), std::vector<std::int64_t>(k)};
  const auto atoms = levels.report_atoms();
  for (double answer : answers) {
    const double y = levels.Perturb(answer, random).value()[0];
    for (int d = 0; d < k; ++d) {
      if (y == atoms[levels.AtomIndex(d, +1)]) ++counts.plus[d];
      if (y == atoms[levels.AtomIndex(d, -1)]) ++counts.minus[d];
    }
  }
  return counts;
}

// Each level's probability of keeping the bit.
inline std::vector<double> Keeps(const LevelsMechanism& levels) {
  std::vector<double> keep;
  for (int d = 0; d < levels.partition().levels(); ++d) keep.push_back(levels.channel().KeepProbability(d));
  return keep;
}

}  // namespace deniable::testing
