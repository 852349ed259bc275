#include "core/distribution/coarse_to_fine.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace deniable {

std::vector<double> RefineGrid(const std::vector<double>& coarse, int fine_cells) {
  const int m = static_cast<int>(coarse.size());
  std::vector<double> fine(static_cast<std::size_t>(fine_cells));
  for (int i = 0; i < fine_cells; ++i) {
    // The fine cell centre in units of coarse cells, measured from the first coarse centre.
    const double position = (i + 0.5) * m / fine_cells - 0.5;
    const int left = std::clamp(static_cast<int>(std::floor(position)), 0, std::max(0, m - 2));
    const int right = std::min(left + 1, m - 1);
    const double t = std::clamp(position - left, 0.0, 1.0);
    fine[static_cast<std::size_t>(i)] = std::max(0.0, (1.0 - t) * coarse[left] + t * coarse[right]);
  }
  const double sum = std::accumulate(fine.begin(), fine.end(), 0.0);
  for (double& value : fine) value /= sum;
  return fine;
}

Result<EmsResult> EstimateCoarseToFine(const std::vector<double>& counts, const TransitionMatrix& coarse,
                                       const TransitionMatrix& fine, EmsOptions options,
                                       const CoarseToFineStarts& starts, int refinement_steps) {
  if (coarse.output_cells() != fine.output_cells() || coarse.input_range().low != fine.input_range().low ||
      coarse.input_range().high != fine.input_range().high) {
    return MakeError("coarse-to-fine estimation needs two matrices over the same input range and output cells");
  }
  if (refinement_steps < 1) return MakeError("coarse-to-fine estimation needs at least one refinement step");
  options.start = starts.coarse;
  auto coarse_fit = EstimateEms(counts, coarse, options);
  if (!coarse_fit) return coarse_fit;
  options.start = RefineGrid(coarse_fit->probabilities, fine.input_cells());
  options.max_iterations = refinement_steps;
  auto fine_fit = EstimateEms(counts, fine, options);
  if (!fine_fit) return fine_fit;
  EmsResult result = std::move(fine_fit).value();
  // The refinement normally ends at its step cap; the budget cutting either
  // stage short is what the result reports.
  result.stop = coarse_fit->stop != EmStop::kConverged ? coarse_fit->stop
                : result.stop == EmStop::kWorkBudget || result.stop == EmStop::kCancelled ? result.stop
                                                                                          : EmStop::kConverged;
  result.converged = result.stop == EmStop::kConverged;
  return result;
}

}  // namespace deniable
