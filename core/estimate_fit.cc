#include "core/estimate_fit.h"

namespace deniable {

EstimateFit FitOfEm(const EmsResult& result, int max_iterations) {
  EstimateFit fit{result.converged, result.iterations, "map steps", ""};
  fit.stopped_because = result.converged ? "the objective stopped changing"
                                         : "it reached its cap of " + std::to_string(max_iterations) + " map steps";
  return fit;
}

EstimateFit FitOfCoarseToFine(const EmsResult& result, int coarse_cells, int fine_cells) {
  EstimateFit fit{result.converged, result.iterations, "map steps", ""};
  const std::string coarse = std::to_string(coarse_cells) + "-cell grid";
  fit.stopped_because = result.converged ? "converged on the " + coarse + ", then refined for " +
                                               std::to_string(result.iterations) + " map steps on the " +
                                               std::to_string(fine_cells) + "-cell grid"
                                         : "it reached the iteration cap on the " + coarse;
  return fit;
}

EstimateFit FitOfKdeSqp(const KdeSqpResult& result) {
  // NLopt's positive results other than the evaluation and time caps are
  // tolerance stops (SUCCESS, STOPVAL_REACHED, FTOL_REACHED, XTOL_REACHED).
  const std::string& status = result.solver_status;
  const bool converged = status == "SUCCESS" || status == "STOPVAL_REACHED" || status == "FTOL_REACHED" ||
                         status == "XTOL_REACHED";
  return {converged, result.evaluations, "objective evaluations",
          "NLopt SLSQP returned " + status + " after " + std::to_string(result.evaluations) + " objective evaluations"};
}

nlohmann::json FitToJson(const EstimateFit& fit) {
  return {{"converged", fit.converged},
          {"steps", fit.steps},
          {"step_unit", fit.step_unit},
          {"stopped_because", fit.stopped_because}};
}

std::optional<std::string> FitWarning(const std::string& estimator, const EstimateFit& fit) {
  if (fit.converged) return std::nullopt;
  return "the " + estimator + " estimate stopped before converging (" + fit.stopped_because +
         "), so its curves and statistics may be far from the estimator's answer; the default estimator, pml, is "
         "regularised and converged in every run of our benchmarks";
}

}  // namespace deniable
