#include "core/kinds/numeric/unsupported_bumps.h"

#include <algorithm>
#include <cstddef>

#include "core/common/validation.h"

namespace deniable {
namespace {

constexpr double kVisibleShareOfPeak = 0.02;
constexpr double kMinimumProminence = 0.25;  // of the bump's own height

// A strict local maximum, a flat top's first point counting as one; the ends
// compare with their one neighbour.
bool IsLocalMaximum(const std::vector<double>& density, std::size_t k) {
  if (k > 0 && !(density[k] > density[k - 1])) return false;
  std::size_t end = k;  // the flat top's last point
  while (end + 1 < density.size() && density[end + 1] == density[k]) ++end;
  return end + 1 == density.size() || density[end + 1] < density[k];
}

// How far the curve falls on the way from k to higher ground (or the range's
// end) on the side where it falls least: a bump's prominence. Ripples of the
// display grid fall by almost nothing and are not bumps.
double Prominence(const std::vector<double>& density, std::size_t k) {
  auto lowest_towards = [&](int step) {
    double lowest = density[k];
    bool reached_higher = false;
    for (auto j = static_cast<std::ptrdiff_t>(k) + step; j >= 0 && j < static_cast<std::ptrdiff_t>(density.size());
         j += step) {
      if (density[static_cast<std::size_t>(j)] > density[k]) {
        reached_higher = true;
        break;
      }
      lowest = std::min(lowest, density[static_cast<std::size_t>(j)]);
    }
    return std::pair<double, bool>{lowest, reached_higher};
  };
  const auto [left, left_higher] = lowest_towards(-1);
  const auto [right, right_higher] = lowest_towards(+1);
  // A side that reaches the range's end without anything higher does not bound the bump.
  if (left_higher && right_higher) return density[k] - std::max(left, right);
  if (left_higher) return density[k] - left;
  if (right_higher) return density[k] - right;
  return density[k] - std::min(left, right);
}

}  // namespace

std::vector<double> UnsupportedBumps(const std::vector<double>& points, const std::vector<double>& density,
                                     const BootstrapBand& band) {
  std::vector<double> bumps;
  if (density.size() < 2) return bumps;
  const auto peak = std::max_element(density.begin(), density.end());
  const std::size_t highest = static_cast<std::size_t>(peak - density.begin());
  for (std::size_t k = 0; k < density.size(); ++k) {
    if (k == highest || !(density[k] >= kVisibleShareOfPeak * *peak) || band.low[k] > 0.0) continue;
    if (IsLocalMaximum(density, k) && Prominence(density, k) >= kMinimumProminence * density[k]) {
      bumps.push_back(points[k]);
    }
  }
  return bumps;
}

std::string UnsupportedBumpsNote(const std::vector<double>& bumps, const std::string& unit) {
  if (bumps.empty()) return "";
  std::string places;
  for (std::size_t i = 0; i < bumps.size(); ++i) {
    if (i > 0) places += i + 1 == bumps.size() ? " and " : ", ";
    places += FormatNumber(bumps[i]);
  }
  return std::string(bumps.size() == 1 ? "the bump" : "the bumps") + " of the curve near " + places +
         (unit.empty() ? "" : " " + unit) + (bumps.size() == 1 ? " is" : " are") +
         " not supported by the reports: the band reaches 0 there, so the reports fit as well with no answers there at all; "
         "it may be the estimator's smoothing, not the answers";
}

}  // namespace deniable
