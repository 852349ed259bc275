#include "core/distribution/estimate_fit.h"

namespace deniable {

namespace {

bool CutShort(const EmsResult& result) {
  return result.stop == EmStop::kWorkBudget || result.stop == EmStop::kCancelled;
}

}  // namespace

EstimateFit FitOfEm(const EmsResult& result, int max_iterations) {
  EstimateFit fit{result.converged, result.iterations, "map steps", "", ""};
  if (CutShort(result)) {
    fit.stopped_because = "it ran out of its work budget after " + std::to_string(result.iterations) + " map steps";
    fit.stopped_by = "work_budget";
    return fit;
  }
  fit.stopped_because = result.converged ? "the objective stopped changing"
                                         : "it reached its cap of " + std::to_string(max_iterations) + " map steps";
  fit.stopped_by = result.converged ? "convergence" : "iteration_cap";
  return fit;
}

EstimateFit FitOfCoarseToFine(const EmsResult& result, int coarse_cells, int fine_cells) {
  EstimateFit fit{result.converged, result.iterations, "map steps", "", ""};
  const std::string coarse = std::to_string(coarse_cells) + "-cell grid";
  if (CutShort(result)) {
    fit.stopped_because = "it ran out of its work budget (" + std::to_string(result.iterations) +
                          " map steps on the " + std::to_string(fine_cells) + "-cell grid)";
    fit.stopped_by = "work_budget";
    return fit;
  }
  fit.stopped_because = result.converged ? "converged on the " + coarse + ", then refined for " +
                                               std::to_string(result.iterations) + " map steps on the " +
                                               std::to_string(fine_cells) + "-cell grid"
                                         : "it reached the iteration cap on the " + coarse;
  fit.stopped_by = result.converged ? "convergence" : "iteration_cap";
  return fit;
}

EstimateFit FitOfKdeSqp(const KdeSqpResult& result) {
  // NLopt's positive results other than the evaluation and time caps are
  // tolerance stops (SUCCESS, STOPVAL_REACHED, FTOL_REACHED, XTOL_REACHED).
  const std::string& status = result.solver_status;
  const bool converged = status == "SUCCESS" || status == "STOPVAL_REACHED" || status == "FTOL_REACHED" ||
                         status == "XTOL_REACHED";
  const std::string evaluations = std::to_string(result.evaluations) + " objective evaluations";
  if (result.work_budget_exhausted || result.cancelled) {
    return {false, result.evaluations, "objective evaluations",
            "it ran out of its work budget: NLopt SLSQP was stopped after " + evaluations, "work_budget"};
  }
  return {converged, result.evaluations, "objective evaluations",
          "NLopt SLSQP returned " + status + " after " + evaluations, converged ? "convergence" : "solver_limit"};
}

nlohmann::json FitToJson(const EstimateFit& fit) {
  return {{"converged", fit.converged},
          {"steps", fit.steps},
          {"step_unit", fit.step_unit},
          {"stopped_because", fit.stopped_because},
          {"stopped_by", fit.stopped_by}};
}

std::optional<std::string> FitWarning(const std::string& estimator, const EstimateFit& fit) {
  if (fit.converged) return std::nullopt;
  if (fit.stopped_by == "work_budget") {
    return "the " + estimator + " estimate stopped before converging (" + fit.stopped_because +
           "), so its curves and statistics may be far from the estimator's answer; the work budget bounds what one "
           "request may compute: ask for fewer estimation_cells or replicates, or use the default options";
  }
  return "the " + estimator + " estimate stopped before converging (" + fit.stopped_because +
         "), so its curves and statistics may be far from the estimator's answer; the default estimator, pml, is "
         "regularised and converged in every run of our benchmarks";
}

}  // namespace deniable
