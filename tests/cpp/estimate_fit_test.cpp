// How an estimator's run ended (core/estimate_fit.h): exact texts and the
// converged flag for each way a run can stop.
#include <doctest/doctest.h>

#include "core/estimate_fit.h"

using namespace deniable;

TEST_CASE("estimate fit: EM runs, coarse-to-fine runs and NLopt statuses") {
  EmsResult em;
  em.iterations = 129;
  em.converged = true;
  const EstimateFit converged = FitOfEm(em, 10000);
  CHECK(converged.converged);
  CHECK(converged.steps == 129);
  CHECK(FitToJson(converged) == nlohmann::json{{"converged", true},
                                               {"steps", 129},
                                               {"step_unit", "map steps"},
                                               {"stopped_because", "the objective stopped changing"}});
  CHECK_FALSE(FitWarning("pml", converged));

  em.iterations = 500;
  em.converged = false;
  const EstimateFit capped = FitOfEm(em, 500);
  CHECK_FALSE(capped.converged);
  CHECK(capped.stopped_because == "it reached its cap of 500 map steps");
  CHECK(*FitWarning("em", capped) ==
        "the em estimate stopped before converging (it reached its cap of 500 map steps), so its curves and statistics "
        "may be far from the estimator's answer; the default estimator, pml, is regularised and converged in every run "
        "of our benchmarks");

  em.iterations = 200;
  em.converged = true;
  CHECK(FitOfCoarseToFine(em, 100, 1000).stopped_because ==
        "converged on the 100-cell grid, then refined for 200 map steps on the 1000-cell grid");
  em.converged = false;
  CHECK(FitOfCoarseToFine(em, 100, 1000).stopped_because == "it reached the iteration cap on the 100-cell grid");

  KdeSqpResult sqp;
  sqp.evaluations = 94;
  for (const char* status : {"SUCCESS", "STOPVAL_REACHED", "FTOL_REACHED", "XTOL_REACHED"}) {
    sqp.solver_status = status;
    CHECK(FitOfKdeSqp(sqp).converged);
  }
  for (const char* status : {"MAXEVAL_REACHED", "MAXTIME_REACHED", "ROUNDOFF_LIMITED", "FAILURE"}) {
    sqp.solver_status = status;
    CHECK_FALSE(FitOfKdeSqp(sqp).converged);
  }
  sqp.solver_status = "MAXEVAL_REACHED";
  CHECK(FitOfKdeSqp(sqp).stopped_because == "NLopt SLSQP returned MAXEVAL_REACHED after 94 objective evaluations");
  CHECK(FitOfKdeSqp(sqp).step_unit == "objective evaluations");
}
