// Penalised EM (PML, ems_estimator.h) on a fine grid, started from the
// solution on a coarse grid.
//
// Why: PML's estimate does not depend on the grid (its curvature penalty is
// grid-independent), but EM's convergence on a fine grid is slow and gets
// slower as n grows (the penalty weighs less against the likelihood, so more
// weakly identified directions remain): with m = 1000 cells and 1024 output
// cells, n = 10^6 reports took 3,000 to 7,000 map steps (1.3 to 3 s) from the
// uniform start. The slow directions are smooth ones, which a coarse grid
// represents as well: so PML runs to convergence on `coarse` (cheap: ten times
// fewer cells), the result is interpolated to the fine grid (RefineGrid) and
// PML then runs at most `refinement_steps` map steps on `fine`. Cost is
// O(coarse steps x coarse cells x output cells + refinement_steps x fine cells
// x output cells), nearly flat in n. What it costs in accuracy is measured in
// the RVNS study (docs/rvns-results.md, "Scaling"): the refined estimate is
// within a few thousandths in W1 of the fully converged one, a tenth of the
// statistical error or less.
#pragma once

#include <vector>

#include "core/distribution/ems_estimator.h"
#include "core/common/result.h"
#include "core/distribution/transition_matrix.h"

namespace deniable {

inline constexpr int kDefaultCoarseCells = 100;
inline constexpr int kDefaultRefinementSteps = 200;

// The cell probabilities of `coarse` (a piecewise-constant density) carried to
// `fine_cells` equal cells by linear interpolation of the density between
// coarse cell centres (constant beyond the outer centres), renormalised to sum 1.
std::vector<double> RefineGrid(const std::vector<double>& coarse, int fine_cells);

struct CoarseToFineStarts {
  std::vector<double> coarse;  // warm start on the coarse grid (empty: uniform)
};

// Both matrices must map the same input range to the same output cells;
// options.start is ignored (the starts come from `starts` and the coarse
// solution). The result's iterations count the fine map steps only; converged
// refers to the coarse solve, unless options.budget cut either stage short
// (then stop says why).
Result<EmsResult> EstimateCoarseToFine(const std::vector<double>& counts, const TransitionMatrix& coarse,
                                       const TransitionMatrix& fine, EmsOptions options,
                                       const CoarseToFineStarts& starts = {},
                                       int refinement_steps = kDefaultRefinementSteps);

}  // namespace deniable
