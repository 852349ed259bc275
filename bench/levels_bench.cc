// Privacy levels (seed 003, LHP + HierA) in the digest's setting (§5.2, §5.6):
// [-1, 1] in five equal intervals with budgets (5, 4, 3, 2, 1) x base, data
// uniform, Gaussian(0.3, 0.2) (clipped to [-1, 1]) and Exp(scale 0.3) clipped
// at 1, base epsilon 0.1 to 2, n respondents, T trials on one fixed dataset
// (the MSE is against that dataset's mean, as the digest's analytic table).
//   Table 1 (the paper's comparison, "stated" epsilons): HierA mu = 1..5,
//     unclamped and clamped; the bounded variant at the same budgets; Harmony
//     (= Duchi), Piecewise, Hybrid and Square Wave at the strictest budget
//     (base epsilon), as the paper runs single-level competitors.
//   Table 2 (honest, at equal TRUE epsilon): HierA (mu = 1) at its budgets,
//     whose exact epsilon is E; the bounded variant rescaled to exact E; and
//     Duchi, Piecewise, Hybrid, Square Wave at E.
// Each cell: n * MSE measured (T trials) and n * Var from the formulas
// (HierA: digest §3.6; the others: Var(y | x), Square Wave: its linear mean
// estimate). Run: build/levels_bench [--quick] [--n N] [--trials T]
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/common/seeded_random.h"
#include "core/kinds/numeric/numeric_truth.h"
#include "core/numeric/duchi.h"
#include "core/numeric/hybrid.h"
#include "core/numeric/levels/hiera_estimator.h"
#include "core/numeric/levels/levels_advice.h"
#include "core/numeric/levels/levels_mechanism.h"
#include "core/numeric/piecewise.h"
#include "core/numeric/square_wave.h"

using namespace deniable;

namespace {

const std::vector<double> kBoundaries = {-0.6, -0.2, 0.2, 0.6};

std::vector<double> Budgets(double base) { return {5 * base, 4 * base, 3 * base, 2 * base, base}; }

std::vector<double> Dataset(const std::string& shape, int n, std::uint64_t seed) {
  SeededRandom random(seed);
  std::vector<double> data;
  for (int i = 0; i < n; ++i) {
    double x;
    if (shape == "uniform") x = -1.0 + 2.0 * UniformUnit(random);
    else if (shape == "gauss") x = 0.3 + 0.2 * StandardNormal(random);
    else x = -0.3 * std::log(1.0 - UniformUnit(random));  // exponential, scale 0.3
    data.push_back(std::clamp(x, -1.0, 1.0));
  }
  return data;
}

double Mean(const std::vector<double>& values) {
  double sum = 0.0;
  for (double v : values) sum += v;
  return sum / static_cast<double>(values.size());
}

// HierA's per-respondent variance for reuse mu (digest §3.6), averaged over the data.
double HierAVariance(const LevelsMechanism& levels, const std::vector<double>& data, int reuse) {
  double total = 0.0;
  for (double x : data) total += levels.MeanVariance(x, reuse);
  return total / static_cast<double>(data.size());
}

double AverageVariance(const NumericMechanism& mechanism, const std::vector<double>& data) {
  double total = 0.0;
  for (double x : data) total += mechanism.MeanEstimateVariance(x).value_or(NAN);
  return total / static_cast<double>(data.size());
}

struct Cell {
  double measured;  // n * MSE
  double analytic;  // n * Var
};

std::string Show(const Cell& cell) {
  char text[64];
  std::snprintf(text, sizeof text, "%.4g (%.4g)", cell.measured, cell.analytic);
  return text;
}

// n * MSE of a linear mean estimate (mean(y) - alpha)/beta over T trials.
Cell MeasureLinear(const NumericMechanism& mechanism, const std::vector<double>& data, int trials, std::uint64_t seed) {
  double alpha = 0.0, beta = 1.0;
  if (!mechanism.UnbiasedValueVariance(0.0)) {
    const auto moments = mechanism.report_moments();
    beta = (moments->mean(1.0) - moments->mean(-1.0)) / 2.0;
    alpha = moments->mean(0.0);
  }
  const double truth = Mean(data);
  SeededRandom random(seed);
  double squared = 0.0;
  for (int t = 0; t < trials; ++t) {
    double sum = 0.0;
    for (double x : data) sum += mechanism.Perturb(x, random).value()[0];
    const double estimate = (sum / static_cast<double>(data.size()) - alpha) / beta;
    squared += (estimate - truth) * (estimate - truth);
  }
  return {static_cast<double>(data.size()) * squared / trials, AverageVariance(mechanism, data)};
}

struct HierACells {
  std::vector<Cell> unclamped, clamped;  // mu = 1..5
  double coverage = 0.0;                 // of mu = 1's 95% interval (from the reports' own variance estimate)
};

HierACells MeasureHierA(const LevelsMechanism& levels, const std::vector<double>& data, int trials, std::uint64_t seed) {
  const int k = levels.partition().levels();
  const auto atoms = levels.report_atoms();
  std::vector<double> keep;
  for (int d = 0; d < k; ++d) keep.push_back(levels.channel().KeepProbability(d));
  const double truth = Mean(data);
  SeededRandom random(seed);
  std::vector<double> unclamped(5, 0.0), clamped(5, 0.0);
  int covered = 0;
  for (int t = 0; t < trials; ++t) {
    LevelBitCounts counts{std::vector<std::int64_t>(k), std::vector<std::int64_t>(k)};
    for (double x : data) {
      const double y = levels.Perturb(x, random).value()[0];
      const auto at = static_cast<int>(std::lower_bound(atoms.begin(), atoms.end(), y) - atoms.begin());
      if (at >= k) ++counts.plus[at - k]; else ++counts.minus[k - 1 - at];
    }
    // The same reports serve every mu and clamp (they are post-processing).
    for (int reuse = 1; reuse <= 5; ++reuse) {
      for (bool clamp : {false, true}) {
        const HierAEstimate estimate = EstimateHierA(counts, keep, {reuse, clamp}, random).value();
        (clamp ? clamped : unclamped)[reuse - 1] += (estimate.mean - truth) * (estimate.mean - truth);
        if (reuse == 1 && !clamp) covered += std::fabs(estimate.mean - truth) <= 1.959963984540054 * std::sqrt(estimate.variance);
      }
    }
  }
  HierACells cells;
  cells.coverage = static_cast<double>(covered) / trials;
  const double n = static_cast<double>(data.size());
  for (int reuse = 1; reuse <= 5; ++reuse) {
    const double analytic = HierAVariance(levels, data, reuse);
    cells.unclamped.push_back({n * unclamped[reuse - 1] / trials, analytic});
    cells.clamped.push_back({n * clamped[reuse - 1] / trials, analytic});
  }
  return cells;
}

std::unique_ptr<const LevelsMechanism> Levels(const std::vector<double>& budgets, LevelsVariant variant) {
  return CreateLevels({-1.0, 1.0}, kBoundaries, budgets, variant).value();
}

}  // namespace

int main(int argc, char** argv) {
  bool quick = false;
  int n = 10000, trials = 300;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--quick") == 0) quick = true;
    else if (std::strcmp(argv[i], "--n") == 0 && i + 1 < argc) n = std::atoi(argv[++i]);
    else if (std::strcmp(argv[i], "--trials") == 0 && i + 1 < argc) trials = std::atoi(argv[++i]);
    else {
      std::fprintf(stderr, "usage: levels_bench [--quick] [--n N] [--trials T]\n");
      return 2;
    }
  }
  if (quick) trials = std::min(trials, 60);
  const std::vector<double> bases = quick ? std::vector<double>{0.1, 1.0} : std::vector<double>{0.1, 0.2, 0.5, 1.0, 2.0};
  const std::vector<std::string> shapes = {"uniform", "gauss", "exp"};
  std::printf("n = %d, %d trials per cell (fixed dataset per shape); cells: n*MSE measured (n*Var from the formula)\n\n",
              n, trials);
  std::printf("### Table 1: at the paper's stated epsilons (single-level competitors at the strictest budget, base eps)\n\n");
  std::printf("| data | base eps | HierA mu=1 | mu=2 | mu=3 | mu=4 | mu=5 | mu=1 clamped | mu=2 clamped | mu=3 clamped | mu=4 clamped | mu=5 clamped | bounded | Harmony/Duchi | Piecewise | Hybrid | Square Wave |\n");
  std::printf("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
  std::vector<std::string> honest_rows;
  std::uint64_t seed = 1000;
  for (const auto& shape : shapes) {
    const auto data = Dataset(shape, n, 7);
    for (double base : bases) {
      std::fprintf(stderr, "%s eps %.2g...\n", shape.c_str(), base);
      const auto paper = Levels(Budgets(base), LevelsVariant::kPaper);
      const auto hiera = MeasureHierA(*paper, data, trials, ++seed);
      const auto bounded = Levels(Budgets(base), LevelsVariant::kBounded);
      const Cell bounded_cell = MeasureHierA(*bounded, data, trials, ++seed).unclamped[0];
      const Cell duchi = MeasureLinear(*CreateDuchi({-1, 1}, base).value(), data, trials, ++seed);
      const Cell piecewise = MeasureLinear(*CreatePiecewise({-1, 1}, base).value(), data, trials, ++seed);
      const Cell hybrid = MeasureLinear(*CreateHybrid({-1, 1}, base).value(), data, trials, ++seed);
      const Cell wave = MeasureLinear(*CreateSquareWave({-1, 1}, base).value(), data, trials, ++seed);
      std::printf("| %s | %.2g | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n",
                  shape.c_str(), base, Show(hiera.unclamped[0]).c_str(), Show(hiera.unclamped[1]).c_str(),
                  Show(hiera.unclamped[2]).c_str(), Show(hiera.unclamped[3]).c_str(), Show(hiera.unclamped[4]).c_str(),
                  Show(hiera.clamped[0]).c_str(), Show(hiera.clamped[1]).c_str(), Show(hiera.clamped[2]).c_str(),
                  Show(hiera.clamped[3]).c_str(), Show(hiera.clamped[4]).c_str(), Show(bounded_cell).c_str(),
                  Show(duchi).c_str(), Show(piecewise).c_str(), Show(hybrid).c_str(), Show(wave).c_str());
      std::fflush(stdout);
      // Table 2: at the exact epsilon E of the paper's mechanism.
      const double exact = *paper->epsilon();
      const auto rescaled = BudgetsForExactEpsilon(*paper, LevelsVariant::kBounded, exact);
      std::string bounded_text = "n/a";
      if (rescaled) bounded_text = Show(MeasureHierA(*Levels(*rescaled, LevelsVariant::kBounded), data, trials, ++seed).unclamped[0]);
      const Cell duchi_e = MeasureLinear(*CreateDuchi({-1, 1}, exact).value(), data, trials, ++seed);
      const Cell piecewise_e = MeasureLinear(*CreatePiecewise({-1, 1}, exact).value(), data, trials, ++seed);
      const Cell hybrid_e = MeasureLinear(*CreateHybrid({-1, 1}, exact).value(), data, trials, ++seed);
      const Cell wave_e = MeasureLinear(*CreateSquareWave({-1, 1}, exact).value(), data, trials, ++seed);
      char row[600];
      std::snprintf(row, sizeof row, "| %s | %.2g | %.3f | %s | %.1f%% | %s | %s | %s | %s | %s |", shape.c_str(), base,
                    exact, Show(hiera.unclamped[0]).c_str(), 100.0 * hiera.coverage, bounded_text.c_str(), Show(duchi_e).c_str(),
                    Show(piecewise_e).c_str(), Show(hybrid_e).c_str(), Show(wave_e).c_str());
      honest_rows.push_back(row);
    }
  }
  std::printf("\n### Table 2: at equal TRUE epsilon E (the exact epsilon of the paper's mechanism at these budgets)\n\n");
  std::printf("| data | base eps | exact E | HierA mu=1 (paper's budgets) | its 95%% CI coverage | bounded, rescaled to E | Duchi(E) | Piecewise(E) | Hybrid(E) | Square Wave(E) |\n");
  std::printf("|---|---|---|---|---|---|---|---|---|---|\n");
  for (const auto& row : honest_rows) std::printf("%s\n", row.c_str());
  return 0;
}
