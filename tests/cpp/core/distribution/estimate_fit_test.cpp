// How an estimator's run ended (core/distribution/estimate_fit.h): exact texts and the
// converged flag for each way a run can stop.
#include <doctest/doctest.h>

#include "core/distribution/estimate_fit.h"

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
                                               {"stopped_because", "the objective stopped changing"},
                                               {"stopped_by", "convergence"}});
  CHECK_FALSE(FitWarning("pml", converged));

  em.iterations = 500;
  em.converged = false;
  const EstimateFit capped = FitOfEm(em, 500);
  CHECK_FALSE(capped.converged);
  CHECK(capped.stopped_because == "it reached its cap of 500 map steps");
  CHECK(capped.stopped_by == "iteration_cap");
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
  CHECK(FitOfKdeSqp(sqp).stopped_by == "solver_limit");
}

TEST_CASE("estimate fit: a run the work budget cut short says so, and its warning says what to do") {
  EmsResult em;
  em.iterations = 417;
  em.converged = false;
  em.stop = EmStop::kWorkBudget;
  const EstimateFit cut = FitOfEm(em, 10000);
  CHECK_FALSE(cut.converged);
  CHECK(cut.stopped_by == "work_budget");
  CHECK(cut.stopped_because == "it ran out of its work budget after 417 map steps");
  CHECK(*FitWarning("em", cut) ==
        "the em estimate stopped before converging (it ran out of its work budget after 417 map steps), so its "
        "curves and statistics may be far from the estimator's answer; the work budget bounds what one request may "
        "compute: ask for fewer estimation_cells or replicates, or use the default options");
  em.iterations = 12;
  CHECK(FitOfCoarseToFine(em, 100, 1000).stopped_by == "work_budget");
  CHECK(FitOfCoarseToFine(em, 100, 1000).stopped_because ==
        "it ran out of its work budget (12 map steps on the 1000-cell grid)");

  KdeSqpResult sqp;
  sqp.evaluations = 15;
  sqp.solver_status = "FORCED_STOP";
  sqp.work_budget_exhausted = true;
  const EstimateFit forced = FitOfKdeSqp(sqp);
  CHECK_FALSE(forced.converged);
  CHECK(forced.stopped_by == "work_budget");
  CHECK(forced.stopped_because == "it ran out of its work budget: NLopt SLSQP was stopped after 15 objective evaluations");
}
