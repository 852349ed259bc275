#include "core/frequency/consistent_joint.h"

#include <algorithm>
#include <cmath>
#include <limits>


namespace deniable {
namespace {

constexpr double kFloor = 1e-9;
constexpr int kMaxRounds = 500;
constexpr double kTolerance = 1e-10;
constexpr int kMaxSweeps = 2000;

// The option of attribute i in a cell (mixed radix, first attribute most significant).
int OptionOf(std::size_t cell, std::size_t i, const std::vector<int>& sizes) {
  for (std::size_t j = sizes.size(); j-- > i + 1;) cell /= static_cast<std::size_t>(sizes[j]);
  return static_cast<int>(cell % static_cast<std::size_t>(sizes[i]));
}

// Every attribute's option of every cell.
std::vector<std::vector<int>> OptionsOf(std::size_t cells, const std::vector<int>& sizes) {
  std::vector<std::vector<int>> options(sizes.size());
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    for (std::size_t cell = 0; cell < cells; ++cell) options[i].push_back(OptionOf(cell, i, sizes));
  }
  return options;
}

// The multiplier t with sum_c max(0, g_c - v_c t) = target over the slice's cells, by Newton steps from `start`:
// the sum is convex and decreasing in t, so from the right of the root each step lands at or before it, and
// from there every step stays at or before it and finishes in finitely many (it is piecewise linear).
double SolveMultiplier(const std::vector<std::size_t>& slice, const std::vector<double>& g, const std::vector<double>& v,
                       double target, double start) {
  double highest = -std::numeric_limits<double>::infinity();  // past the largest g_c / v_c every cell is 0
  for (std::size_t c : slice) highest = std::max(highest, g[c] / v[c]);
  if (target <= 0.0) return highest;
  double t = std::min(start, highest);
  for (int step = 0; step < 100; ++step) {
    double sum = 0.0, slope = 0.0;
    for (std::size_t c : slice) {
      const double x = g[c] - v[c] * t;
      if (x > 0.0) {
        sum += x;
        slope += v[c];
      }
    }
    if (slope <= 0.0) {  // every cell at 0 (t at `highest`): step into the last piece
      t = highest - target / std::max(1e-300, v[slice.front()]);
      continue;
    }
    const double next = t + (sum - target) / slope;
    if (std::abs(next - t) <= 1e-15 * std::max(1.0, std::abs(t))) return next;
    t = next;
  }
  return t;
}

}  // namespace

std::vector<double> ProjectOntoMargins(const std::vector<double>& frequency, const std::vector<double>& variance,
                                       const std::vector<int>& sizes, const std::vector<std::vector<double>>& margins) {
  const std::size_t cells = frequency.size();
  const std::vector<std::vector<int>> options = OptionsOf(cells, sizes);
  double largest = 0.0;
  for (double x : variance) largest = std::max(largest, x);
  std::vector<double> v(cells);
  for (std::size_t c = 0; c < cells; ++c) v[c] = std::max(variance[c], std::max(largest, 1.0) * 1e-12);
  std::vector<std::vector<std::vector<std::size_t>>> slices(sizes.size());
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    slices[i].resize(static_cast<std::size_t>(sizes[i]));
    for (std::size_t c = 0; c < cells; ++c) slices[i][static_cast<std::size_t>(options[i][c])].push_back(c);
  }
  std::vector<std::vector<double>> multiplier(sizes.size());
  for (std::size_t i = 0; i < sizes.size(); ++i) multiplier[i].assign(static_cast<std::size_t>(sizes[i]), 0.0);
  std::vector<double> shift(cells, 0.0), g(cells), table(cells);  // shift_c: the sum of c's options' multipliers
  for (int sweep = 0; sweep < kMaxSweeps; ++sweep) {
    for (std::size_t i = 0; i < sizes.size(); ++i) {
      for (std::size_t b = 0; b < slices[i].size(); ++b) {
        const std::vector<std::size_t>& slice = slices[i][b];
        const double old = multiplier[i][b];
        for (std::size_t c : slice) g[c] = frequency[c] - v[c] * (shift[c] - old);
        const double t = SolveMultiplier(slice, g, v, margins[i][b], old);
        multiplier[i][b] = t;
        for (std::size_t c : slice) shift[c] += t - old;
      }
    }
    double worst = 0.0;
    for (std::size_t c = 0; c < cells; ++c) table[c] = std::max(0.0, frequency[c] - v[c] * shift[c]);
    for (std::size_t i = 0; i < sizes.size(); ++i) {
      for (std::size_t b = 0; b < slices[i].size(); ++b) {
        double sum = 0.0;
        for (std::size_t c : slices[i][b]) sum += table[c];
        worst = std::max(worst, std::abs(sum - margins[i][b]));
      }
    }
    if (worst <= kTolerance) break;
  }
  return table;
}

std::vector<double> FitMargins(std::vector<double> frequencies, const std::vector<int>& sizes,
                               const std::vector<std::vector<double>>& margins) {
  for (double& f : frequencies) f = std::max(f, kFloor);
  std::vector<std::vector<int>> options(sizes.size());
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    for (std::size_t cell = 0; cell < frequencies.size(); ++cell) options[i].push_back(OptionOf(cell, i, sizes));
  }
  for (int round = 0; round < kMaxRounds; ++round) {
    double worst = 0.0;
    for (std::size_t i = 0; i < sizes.size(); ++i) {
      std::vector<double> margin(static_cast<std::size_t>(sizes[i]), 0.0);
      for (std::size_t cell = 0; cell < frequencies.size(); ++cell) {
        margin[static_cast<std::size_t>(options[i][cell])] += frequencies[cell];
      }
      for (std::size_t b = 0; b < margin.size(); ++b) worst = std::max(worst, std::abs(margin[b] - margins[i][b]));
      for (std::size_t cell = 0; cell < frequencies.size(); ++cell) {
        const double current = margin[static_cast<std::size_t>(options[i][cell])];
        frequencies[cell] *= current > 0.0 ? margins[i][static_cast<std::size_t>(options[i][cell])] / current : 0.0;
      }
    }
    if (worst <= kTolerance) break;
  }
  return frequencies;
}

}  // namespace deniable
