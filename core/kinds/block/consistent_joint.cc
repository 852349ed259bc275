#include "core/kinds/block/consistent_joint.h"

#include <algorithm>
#include <cmath>


namespace deniable {
namespace {

constexpr double kFloor = 1e-9;
constexpr int kMaxRounds = 500;
constexpr double kTolerance = 1e-10;

// The option of attribute i in a cell (mixed radix, first attribute most significant).
int OptionOf(std::size_t cell, std::size_t i, const std::vector<int>& sizes) {
  for (std::size_t j = sizes.size(); j-- > i + 1;) cell /= static_cast<std::size_t>(sizes[j]);
  return static_cast<int>(cell % static_cast<std::size_t>(sizes[i]));
}

}  // namespace

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
