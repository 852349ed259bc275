#include "core/kinds/numeric/clumped_answers.h"

#include <algorithm>
#include <cstddef>
#include <vector>

namespace deniable {

int SeparateBumps(const GridDistribution& fitted) {
  const std::vector<double>& p = fitted.probabilities;
  const std::size_t cells = p.size();
  if (cells == 0) return 0;
  // The highest cell at or left of each cell, and at or right of it.
  std::vector<double> left(cells), right(cells);
  for (std::size_t k = 0; k < cells; ++k) left[k] = std::max(p[k], k > 0 ? left[k - 1] : 0.0);
  for (std::size_t k = cells; k-- > 0;) right[k] = std::max(p[k], k + 1 < cells ? right[k + 1] : 0.0);
  // A cell in a dip is at most the share of the lower of the two; the cells
  // between dips are one bump (a single peak never dips: one side's highest
  // point is the cell itself).
  int bumps = 0;
  double mass = 0.0;
  for (std::size_t k = 0; k <= cells; ++k) {
    const bool in_dip = k == cells || p[k] <= kClumpDipShare * std::min(left[k], right[k]);
    if (!in_dip) {
      mass += p[k];
      continue;
    }
    if (mass >= kClumpLeastMass) ++bumps;
    mass = 0.0;
  }
  return bumps;
}

}  // namespace deniable
