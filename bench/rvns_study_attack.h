// The paper's privacy metric (digest §7.3, eqs. 16-18) for bench/rvns_study.cc.
//
// dis(X, X') = sqrt(sum_i (x_i - x'_i)^2), a total over users (it grows with
// sqrt(n)). X' is what an adversary infers from each report: the x in [a, b]
// maximising the product of the per-value densities prod_j p(x, y_ij)
// (eq. 17; for k > 1 this treats the values as independent, which they are
// given x with fresh windows, and are not with a shared one). The maximiser is
// searched on a grid of `kAttackGridPoints` points over [a, b], as in the
// digest's re-implementation. The objective is piecewise polynomial with
// large flat maximal sets, and the paper leaves the tie-break unspecified, so
// all three of the digest's rules are computed from the same scan:
//   first  - the smallest maximising grid point (MATLAB max / argmax style);
//   middle - the mean of the maximising set;
//   random - a uniformly random maximiser (SeededRandom, fixed seed).
// Beside them, one attack the paper does not use: the Bayes posterior mean
// with the population distribution as prior (weights on the grid points),
// E[x | report] = sum_g w_g L_g x_g / sum_g w_g L_g. It minimises the expected
// squared error, so its dis is (up to sampling noise) at most the mean-guess
// baseline's, which the likelihood attack's is not. It uses the same product
// of per-value densities, so with a shared window (dependent values) it is an
// approximation of the exact posterior, not the optimum.
// Ties: products within a relative 1e-9 of the maximum (the flat parts are
// exactly equal in exact arithmetic; 1e-9 absorbs round-off only).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <thread>
#include <vector>

#include "core/numeric/numeric_mechanism.h"
#include "core/common/seeded_random.h"

namespace rvns_study {

inline constexpr int kAttackGridPoints = 501;
inline constexpr double kTieRelativeTolerance = 1e-9;

struct AttackDistances {
  double first = 0.0;
  double middle = 0.0;
  double random = 0.0;
  double bayes = 0.0;
};

namespace detail {

struct SquaredErrors {
  double first = 0.0;
  double middle = 0.0;
  double random = 0.0;
  double bayes = 0.0;
};

// Users [begin, end): reports are stored flat, values_per_report per user.
template <typename Density>
SquaredErrors AttackUsers(const std::vector<double>& answers, const std::vector<double>& reports, int values_per_report,
                          const std::vector<double>& grid, const std::vector<double>& prior, const Density& density,
                          std::size_t begin, std::size_t end, std::uint64_t seed) {
  deniable::SeededRandom random(seed);
  std::vector<double> score(grid.size());
  double prior_mean = 0.0, prior_total = 0.0;
  for (std::size_t g = 0; g < grid.size(); ++g) {
    prior_mean += prior[g] * grid[g];
    prior_total += prior[g];
  }
  prior_mean /= prior_total;
  SquaredErrors errors;
  for (std::size_t user = begin; user < end; ++user) {
    const double* values = reports.data() + user * static_cast<std::size_t>(values_per_report);
    double best = 0.0, evidence = 0.0, posterior_sum = 0.0;
    for (std::size_t g = 0; g < grid.size(); ++g) {
      double product = 1.0;
      for (int j = 0; j < values_per_report; ++j) product *= density(grid[g], values[j]);
      score[g] = product;
      if (product > best) best = product;
      evidence += prior[g] * product;
      posterior_sum += prior[g] * product * grid[g];
    }
    // best == 0 (no grid point explains the report): every point ties.
    const double threshold = best * (1.0 - kTieRelativeTolerance);
    std::size_t ties = 0, first = grid.size();
    double sum = 0.0;
    for (std::size_t g = 0; g < grid.size(); ++g) {
      if (score[g] < threshold) continue;
      if (ties == 0) first = g;
      ++ties;
      sum += grid[g];
    }
    std::uint64_t pick = deniable::UniformBelow(random, ties);
    double chosen = grid[first];
    for (std::size_t g = first; g < grid.size(); ++g) {
      if (score[g] < threshold) continue;
      if (pick-- == 0) {
        chosen = grid[g];
        break;
      }
    }
    const double x = answers[user];
    const double bayes = evidence > 0.0 ? posterior_sum / evidence : prior_mean;
    errors.bayes += (bayes - x) * (bayes - x);
    errors.first += (grid[first] - x) * (grid[first] - x);
    errors.middle += (sum / static_cast<double>(ties) - x) * (sum / static_cast<double>(ties) - x);
    errors.random += (chosen - x) * (chosen - x);
  }
  return errors;
}

}  // namespace detail

// The attack on every user, split over `threads` threads (the per-user work is
// independent; each thread has its own tie-break stream). prior_masses: the
// population distribution on equal cells over the range (for the Bayes
// attack); each grid point gets its cell's mass divided by the number of grid
// points in that cell, so the weights form the same distribution.
template <typename Density>
AttackDistances LikelihoodAttack(const std::vector<double>& answers, const std::vector<double>& reports,
                                 int values_per_report, deniable::NumericRange range,
                                 const std::vector<double>& prior_masses, const Density& density, int threads,
                                 std::uint64_t seed) {
  std::vector<double> grid(kAttackGridPoints);
  const int cells = static_cast<int>(prior_masses.size());
  std::vector<int> cell_of(kAttackGridPoints), points_in_cell(static_cast<std::size_t>(cells), 0);
  for (int g = 0; g < kAttackGridPoints; ++g) {
    grid[static_cast<std::size_t>(g)] = range.low + range.width() * g / (kAttackGridPoints - 1);
    cell_of[static_cast<std::size_t>(g)] = std::clamp(
        static_cast<int>((grid[static_cast<std::size_t>(g)] - range.low) / range.width() * cells), 0, cells - 1);
    ++points_in_cell[static_cast<std::size_t>(cell_of[static_cast<std::size_t>(g)])];
  }
  std::vector<double> prior(kAttackGridPoints);
  for (int g = 0; g < kAttackGridPoints; ++g) {
    const auto cell = static_cast<std::size_t>(cell_of[static_cast<std::size_t>(g)]);
    prior[static_cast<std::size_t>(g)] = prior_masses[cell] / points_in_cell[cell];
  }
  std::vector<detail::SquaredErrors> parts(static_cast<std::size_t>(threads));
  std::vector<std::thread> workers;
  const std::size_t n = answers.size();
  for (int t = 0; t < threads; ++t) {
    const std::size_t begin = n * t / threads, end = n * (t + 1) / threads;
    workers.emplace_back([&, t, begin, end] {
      parts[static_cast<std::size_t>(t)] = detail::AttackUsers(
          answers, reports, values_per_report, grid, prior, density, begin, end, seed + static_cast<std::uint64_t>(t));
    });
  }
  for (auto& worker : workers) worker.join();
  detail::SquaredErrors total;
  for (const auto& part : parts) {
    total.first += part.first;
    total.middle += part.middle;
    total.random += part.random;
    total.bayes += part.bayes;
  }
  return {std::sqrt(total.first), std::sqrt(total.middle), std::sqrt(total.random), std::sqrt(total.bayes)};
}

// dis with X' = the reports themselves (the paper's choice for noise-adding
// competitors; digest §7.3), one value per report, not clipped.
inline double ReportDistance(const std::vector<double>& answers, const std::vector<double>& reports) {
  double total = 0.0;
  for (std::size_t i = 0; i < answers.size(); ++i) total += (reports[i] - answers[i]) * (reports[i] - answers[i]);
  return std::sqrt(total);
}

// dis of the trivial attack "guess the population mean for everyone": sqrt(n) * SD.
inline double MeanGuessDistance(const std::vector<double>& answers) {
  double mean = 0.0;
  for (double x : answers) mean += x;
  mean /= static_cast<double>(answers.size());
  double total = 0.0;
  for (double x : answers) total += (x - mean) * (x - mean);
  return std::sqrt(total);
}

}  // namespace rvns_study
