// The rating grid's mechanisms compared (issue 33): the standard error of one
// item's mean position (1..L) from n respondents, by formula
// (grid_estimator.h MeanPositionVariance) and simulated (S surveys of n
// respondents through the row mechanism and the estimator), for
// L in {5, 7, 11}, items R in {1, 5, 10} and the grid's epsilon in
// {0.5, 1, 2, 4}, each item at epsilon / R. Answers: uniform over the scale
// (the advisor's planning assumption) and a skewed distribution (most answers
// near the top). Columns:
//   grr      generalised randomized response (the baseline: the categorical
//            questions' mechanism, ignoring the order);
//   ordinal  the exponential mechanism with score -|i - j| at t = e / (L - 1)
//            (grid_mechanism.h: its exact epsilon);
//   textbook the same at the textbook t = e / (2 (L - 1)) (formula only):
//            what the exact calibration gains;
//   duchi    Duchi et al.'s numeric mechanism on the positions (the grid's
//            "duchi", core/numeric/duchi.h): the mean alone, no distribution.
//            Formula from the numeric mechanism's own variance, simulated
//            through the grid's row mechanism and estimator.
//
//   build/grid_bench [--n N] [--surveys S]
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "core/common/seeded_random.h"
#include "core/kinds/grid/grid_estimator.h"
#include "core/kinds/grid/grid_mechanism.h"
#include "core/numeric/numeric_mechanism_factory.h"

namespace {

using namespace deniable;

double Formula(const ChannelMatrix& channel, const std::vector<double>& f, int n) {
  return std::sqrt(MeanPositionVariance(channel, f, n));
}

// The standard deviation of S simulated surveys' mean-position estimates.
double Simulated(const GridRowMechanism& mechanism, const std::vector<double>& f, int n, int surveys,
                 std::uint64_t seed) {
  SeededRandom random(seed);
  std::vector<double> cumulative;
  double total = 0.0;
  for (double share : f) cumulative.push_back(total += share);
  double sum = 0.0, square = 0.0;
  for (int s = 0; s < surveys; ++s) {
    std::vector<std::int64_t> counts(static_cast<std::size_t>(mechanism.outputs()), 0);
    for (int r = 0; r < n; ++r) {
      const double u = UniformUnit(random);
      int level = 0;
      while (level + 1 < static_cast<int>(f.size()) && u >= cumulative[static_cast<std::size_t>(level)]) ++level;
      ++counts[static_cast<std::size_t>(mechanism.Perturb(level, random))];
    }
    const double mean = EstimateRow(mechanism.channel(), counts).mean.estimate;
    sum += mean;
    square += mean * mean;
  }
  const double average = sum / surveys;
  return std::sqrt((square - surveys * average * average) / (surveys - 1));
}

// Duchi on positions [1, L] from core/numeric's own variance: E[Var(y | x)] + Var(x), a check of the grid's channel.
double DuchiFormula(int levels, double epsilon, const std::vector<double>& f, int n) {
  auto duchi = ParseNumericMechanism({{"name", "duchi"}, {"epsilon", epsilon}}, {1.0, static_cast<double>(levels)}, "");
  if (!duchi) return NAN;
  double within = 0.0, mean = 0.0, square = 0.0;
  for (int i = 0; i < levels; ++i) {
    const double x = i + 1.0;
    within += f[static_cast<std::size_t>(i)] * (*duchi)->UnbiasedValueVariance(x).value_or(NAN);
    mean += f[static_cast<std::size_t>(i)] * x;
    square += f[static_cast<std::size_t>(i)] * x * x;
  }
  return std::sqrt((within + square - mean * mean) / n);
}

std::vector<double> Skewed(int levels) {
  std::vector<double> f;
  double total = 0.0;
  for (int i = 0; i < levels; ++i) f.push_back(1.0 + i * i), total += f.back();
  for (double& share : f) share /= total;
  return f;
}

}  // namespace

int main(int argc, char** argv) {
  int n = 1000, surveys = 200;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (std::strcmp(argv[i], "--n") == 0) n = std::atoi(argv[i + 1]);
    if (std::strcmp(argv[i], "--surveys") == 0) surveys = std::atoi(argv[i + 1]);
  }
  std::printf("Standard error of one item's mean position (1..L), n = %d respondents; simulated over %d surveys.\n",
              n, surveys);
  std::printf("Each item at eps/R. formula / simulated. Baseline: grr. 'best' = the smaller formula of grr, ordinal.\n");
  for (const char* answers : {"uniform", "skewed"}) {
    std::printf("\nanswers: %s\n", answers);
    std::printf("%3s %3s %5s %7s | %8s %8s | %8s %8s | %8s | %8s %8s | %s\n", "L", "R", "eps", "eps/R", "grr", "(sim)",
                "ordinal", "(sim)", "textbook", "duchi", "(sim)", "best of grr/ordinal");
    for (int levels : {5, 7, 11}) {
      const std::vector<double> f =
          std::strcmp(answers, "uniform") == 0 ? std::vector<double>(levels, 1.0 / levels) : Skewed(levels);
      for (int rows : {1, 5, 10}) {
        for (double epsilon : {0.5, 1.0, 2.0, 4.0}) {
          const double row_epsilon = epsilon / rows;
          const auto grr = *GridRowMechanism::Create(GridMechanismKind::kGrr, levels, row_epsilon);
          const auto ordinal = *GridRowMechanism::Create(GridMechanismKind::kOrdinal, levels, row_epsilon);
          const double grr_formula = Formula(grr->channel(), f, n);
          const double ordinal_formula = Formula(ordinal->channel(), f, n);
          const std::uint64_t seed = static_cast<std::uint64_t>(levels * 1000 + rows * 10) + static_cast<std::uint64_t>(epsilon * 4);
          const auto duchi = *GridRowMechanism::Create(GridMechanismKind::kDuchi, levels, row_epsilon);
          std::printf("%3d %3d %5.1f %7.3f | %8.3f %8.3f | %8.3f %8.3f | %8.3f | %8.3f %8.3f | %s\n", levels, rows,
                      epsilon, row_epsilon, grr_formula, Simulated(*grr, f, n, surveys, seed), ordinal_formula,
                      Simulated(*ordinal, f, n, surveys, seed + 1),
                      Formula(OrdinalChannel(levels, row_epsilon / (2.0 * (levels - 1))), f, n),
                      DuchiFormula(levels, row_epsilon, f, n), Simulated(*duchi, f, n, surveys, seed + 2),
                      ordinal_formula < grr_formula ? "ordinal" : "grr");
        }
      }
    }
  }
  return 0;
}
