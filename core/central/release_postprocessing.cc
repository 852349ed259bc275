#include "core/central/release_postprocessing.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "core/frequency/norm_sub.h"

namespace deniable {

std::vector<double> PostProcess(const std::vector<double>& released, const PostProcessing& steps) {
  std::vector<double> values = released;
  if (steps.consistent) {
    const double total = std::accumulate(released.begin(), released.end(), 0.0);
    values = NormSub(values, std::max(0.0, total));
  }
  if (steps.clamp) {
    for (double& value : values) value = std::max(0.0, value);
  }
  if (steps.round) {
    for (double& value : values) value = std::round(value);
  }
  return values;
}

}  // namespace deniable
