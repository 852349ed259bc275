// How an estimator's run ended, for the results document.
//
// Why: an iterative estimator cut off at its iteration cap returns numbers
// that look like any other estimate. Plain EM on a weak channel (Laplace at
// small epsilon) can need more than 10,000 map steps, and NLopt's SLSQP can stop
// at its evaluation cap; an analyst must see that, not find it in a benchmark.
// Every numeric result therefore carries a "fit" object (FitToJson) and, when
// the run did not converge, a warning (FitWarning).
#pragma once

#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "core/distribution/ems_estimator.h"
#include "core/distribution/kde_sqp_estimator.h"

namespace deniable {

struct EstimateFit {
  bool converged = false;
  int steps = 0;                // map steps (EM family) or objective evaluations (kde_sqp)
  std::string step_unit;        // "map steps" or "objective evaluations"
  std::string stopped_because;  // one line for people
  // For programs: "convergence", "iteration_cap" (EM family), "solver_limit"
  // (kde_sqp: NLopt's evaluation cap or round-off), "work_budget" (work_budget.h).
  std::string stopped_by;
};

// An EM-family run (pml, ems, em) with its iteration cap.
EstimateFit FitOfEm(const EmsResult& result, int max_iterations);
// Coarse-to-fine PML: the coarse solve's convergence and the fine grid's refinement steps.
EstimateFit FitOfCoarseToFine(const EmsResult& result, int coarse_cells, int fine_cells);
// The paper's KDE + SQP pipeline: converged when NLopt stopped on a tolerance.
EstimateFit FitOfKdeSqp(const KdeSqpResult& result);

nlohmann::json FitToJson(const EstimateFit& fit);

// The warning for a fit that did not converge (nullopt when it did).
std::optional<std::string> FitWarning(const std::string& estimator, const EstimateFit& fit);

}  // namespace deniable
