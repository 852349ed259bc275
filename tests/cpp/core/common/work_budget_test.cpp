// The work budget and cancellation of numeric estimation (core/common/work_budget.h):
// the budget's accounting; each estimator (EM, EMS, PML, coarse-to-fine,
// KDE + SQP) stops when it runs out and says so; the results document says
// so; a cancelled estimation stops promptly; the default options are not cut.
#include <doctest/doctest.h>

#include <chrono>
#include <cmath>
#include <numeric>

#include "core/distribution/coarse_to_fine.h"
#include "core/distribution/ems_estimator.h"
#include "core/distribution/kde_sqp_estimator.h"
#include "core/kinds/numeric/numeric_results.h"
#include "core/survey/report.h"
#include "core/survey/results.h"
#include "core/numeric/rvns.h"
#include "core/common/seeded_random.h"
#include "core/common/work_budget.h"

using namespace deniable;
using nlohmann::json;

namespace {

// RVNS (for kde_sqp) and Laplace at epsilon 0.5, whose weak channel keeps plain
// EM far from converged for thousands of map steps.
Survey BudgetSurvey() {
  return *ParseSurvey(json::parse(R"({
    "format": "deniable.survey/v1", "id": "budget", "version": 1, "title": "T",
    "questions": [
      {"id": "rv", "text": "RVNS", "type": "numeric", "range": [0, 10],
       "mechanism": {"name": "rvns", "window": 2, "values": 2, "window_mode": "fresh", "uniform_probability": 0.2}},
      {"id": "lap", "text": "Laplace", "type": "numeric", "range": [0, 10],
       "mechanism": {"name": "laplace", "epsilon": 0.5}}
    ]})"));
}

SurveyAggregate BudgetAggregate(const Survey& survey, int n, std::uint64_t seed) {
  SurveyAggregate aggregate(survey);
  SeededRandom random(seed);
  for (int i = 0; i < n; ++i) {
    const double x = 2.0 + 3.0 * (UniformUnit(random) + UniformUnit(random));
    aggregate.Add(*ParseReport(survey, *PerturbAnswers(survey, json{{"rv", x}, {"lap", x}}, random)));
  }
  return aggregate;
}

double Seconds(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

TEST_CASE("work budget: spending, shares, exhaustion and sticky cancellation") {
  WorkBudget total(100);
  CHECK(total.Spend(60));
  CHECK(total.remaining() == 40);
  CHECK_FALSE(total.Spend(41));
  CHECK(total.exhausted());
  CHECK(total.remaining() == 40);  // a refused spend takes nothing

  WorkBudget parent(100);
  WorkBudget share(parent, 30);
  CHECK(share.Spend(20));
  CHECK(parent.spent() == 20);
  CHECK(share.remaining() == 10);
  CHECK_FALSE(share.Spend(11));
  CHECK(share.exhausted());
  CHECK_FALSE(parent.exhausted());
  WorkBudget big(parent, 1000);  // capped by what the parent has left
  CHECK(big.remaining() == 80);
  CHECK(SpendWork(nullptr, 1000000000000));

  int polls = 0;
  WorkBudget cancellable(1000, [&polls] { return ++polls >= 3; });
  WorkBudget child(cancellable, 100);
  CHECK(child.Spend(1));
  CHECK(child.Spend(1));
  CHECK_FALSE(child.Spend(1));  // the third poll cancels
  CHECK(child.Cancelled());
  CHECK(cancellable.Cancelled());
  CHECK(polls == 3);  // sticky: not polled again
  CHECK_FALSE(cancellable.exhausted());
}

TEST_CASE("work budget: EM, EMS, PML and coarse-to-fine stop when it runs out, and say so") {
  const Survey survey = BudgetSurvey();
  const SurveyAggregate aggregate = BudgetAggregate(survey, 5000, 3);
  const Question& laplace = survey.questions[1];
  const NumericHistogram& histogram = static_cast<const NumericAggregate&>(aggregate.question(1)).histogram();
  const auto transition = *TransitionMatrix::ForMechanism(NumericKindOf(laplace).mechanism(), 200, histogram.cells());
  const auto coarse = *TransitionMatrix::ForMechanism(NumericKindOf(laplace).mechanism(), 100, histogram.cells());
  const auto counts = histogram.counts_as_doubles();
  const std::int64_t step = 2 * transition.band_entries();
  for (EmSmoothing smoothing : {EmSmoothing::kNone, EmSmoothing::kBinomial, EmSmoothing::kCurvature}) {
    INFO(static_cast<int>(smoothing));
    EmsOptions options;
    options.smoothing = smoothing;
    options.curvature_penalty = 1e-6;  // weak, so PML needs many steps too
    const EmsResult free = *EstimateEms(counts, transition, options);
    REQUIRE(free.iterations > 100);
    WorkBudget budget(50 * step);
    options.budget = &budget;
    const EmsResult cut = *EstimateEms(counts, transition, options);
    CHECK(cut.stop == EmStop::kWorkBudget);
    CHECK_FALSE(cut.converged);
    CHECK(cut.iterations <= 50);
    CHECK(cut.iterations >= 40);
    CHECK(budget.spent() <= 50 * step);
    CHECK(budget.exhausted());
    CHECK(std::accumulate(cut.probabilities.begin(), cut.probabilities.end(), 0.0) == doctest::Approx(1.0));
  }
  EmsOptions pml;
  WorkBudget budget(20 * step);
  pml.budget = &budget;
  const EmsResult cut = *EstimateCoarseToFine(counts, coarse, transition, pml);
  CHECK(cut.stop == EmStop::kWorkBudget);
  CHECK_FALSE(cut.converged);
}

TEST_CASE("work budget: KDE + SQP is stopped and returns the best feasible point it evaluated") {
  const Survey survey = BudgetSurvey();
  const SurveyAggregate aggregate = BudgetAggregate(survey, 5000, 4);
  const auto density = NumericKindOf(survey.questions[0]).mechanism().transition_density();
  const NumericHistogram& histogram = static_cast<const NumericAggregate&>(aggregate.question(0)).histogram();
  KdeSqpOptions options;
  options.points = 100;
  const KdeSqpResult free = *EstimateKdeSqp(histogram, NumericKindOf(survey.questions[0]).range(), density, options);
  REQUIRE(free.evaluations > 20);
  CHECK_FALSE(free.work_budget_exhausted);
  WorkBudget budget(10 * SqpWorkPerEvaluation(100));
  options.solver.budget = &budget;
  const KdeSqpResult cut = *EstimateKdeSqp(histogram, NumericKindOf(survey.questions[0]).range(), density, options);
  CHECK(cut.work_budget_exhausted);
  CHECK_FALSE(cut.cancelled);
  CHECK(cut.solver_status == "FORCED_STOP");
  CHECK(cut.evaluations <= 10);
  CHECK(std::accumulate(cut.probabilities.begin(), cut.probabilities.end(), 0.0) == doctest::Approx(1.0));
}

TEST_CASE("work budget: every estimator's results document says when the budget cut it short") {
  const Survey survey = BudgetSurvey();
  const SurveyAggregate aggregate = BudgetAggregate(survey, 5000, 5);
  for (const char* estimator : {"em", "ems", "pml", "kde_sqp"}) {
    INFO(estimator);
    const bool rvns = std::string(estimator) == "kde_sqp";
    const Question& question = survey.questions[rvns ? 0 : 1];
    NumericEstimateOptions options;
    options.estimator = estimator;
    options.replicates = 10;
    if (std::string(estimator) == "pml") options.curvature_penalty = 1e-6;
    options.work_budget = 2000000;  // a few dozen map steps on this grid
    const auto start = std::chrono::steady_clock::now();
    const json document = *NumericResultToJson(NumericKindOf(question), static_cast<const NumericAggregate&>(aggregate.question(rvns ? 0 : 1)), options);
    CHECK(Seconds(start) < 2.0);
    CHECK(document["fit"]["converged"] == false);
    CHECK(document["fit"]["stopped_by"] == "work_budget");
    CHECK(document["bootstrap"]["replicates_cut_short"].get<int>() > 0);
    const std::string warning = document["warning"].get<std::string>();
    CHECK(warning.rfind(std::string("the ") + estimator + " estimate stopped before converging (it ran out of its work budget", 0) == 0);
    CHECK(warning.find("bootstrap replicates ran out of the work budget before converging") != std::string::npos);
    // Still a complete document: curves, statistics and bands.
    CHECK(document["density"]["value"].size() == kDefaultDisplayPoints);
    CHECK(document["statistics"]["mean"]["low"].get<double>() <= document["statistics"]["mean"]["high"].get<double>());
  }
}

TEST_CASE("work budget: the largest custom options stay within a few seconds; defaults are not cut") {
  const Survey survey = BudgetSurvey();
  const SurveyAggregate aggregate = BudgetAggregate(survey, 20000, 6);
  // Plain EM on 1000 cells with 20 replicates on the weak Laplace channel: it
  // ran to its 10,000-step cap for the estimate and for every replicate.
  NumericEstimateOptions heavy;
  heavy.estimator = "em";
  heavy.estimation_cells = 1000;
  heavy.replicates = 20;
  const auto start = std::chrono::steady_clock::now();
  const json document = *NumericResultToJson(NumericKindOf(survey.questions[1]), static_cast<const NumericAggregate&>(aggregate.question(1)), heavy);
  const double seconds = Seconds(start);
  MESSAGE("em, 1000 cells x 20 replicates, Laplace eps 0.5, n = 20000: " << seconds << " s");
  CHECK(seconds < 15.0);  // about 3 s alone; generous for a loaded machine
  CHECK(document["fit"]["stopped_by"] == "work_budget");

  // The default options give the same document with and without the budget.
  NumericEstimateOptions unlimited;
  unlimited.work_budget = std::int64_t{1} << 62;
  const json budgeted = SurveyResultsToJson(survey, aggregate);
  const json free = SurveyResultsToJson(survey, aggregate, unlimited);
  CHECK(budgeted == free);
  for (const auto& question : budgeted["questions"]) {
    CHECK(question["bootstrap"]["replicates_cut_short"] == 0);
    CHECK(question["fit"]["stopped_by"] == "convergence");
  }
}

TEST_CASE("cancellation: a results computation stops within moments and says so") {
  const Survey survey = BudgetSurvey();
  const SurveyAggregate aggregate = BudgetAggregate(survey, 20000, 7);
  NumericEstimateOptions heavy;
  heavy.estimator = "em";
  heavy.estimation_cells = 1000;
  heavy.replicates = 20;
  int polls = 0;
  std::chrono::steady_clock::time_point cancelled_at;
  // Cancelled at the 100th poll (about 100 map steps in).
  const auto cancelled = NumericResultToJson(NumericKindOf(survey.questions[1]), static_cast<const NumericAggregate&>(aggregate.question(1)), heavy, [&] {
    if (++polls < 100) return false;
    cancelled_at = std::chrono::steady_clock::now();
    return true;
  });
  const double seconds = Seconds(cancelled_at);
  MESSAGE("returned " << seconds << " s after the cancellation");
  REQUIRE_FALSE(cancelled);
  CHECK(cancelled.error() == kEstimationCancelled);
  CHECK(cancelled.error_code() == ErrorCode::kCancelled);
  CHECK(polls == 100);  // nothing polled (or computed) after it
  CHECK(seconds < 0.5);

  // Through the whole document: every numeric question stops, none is cached by a caller.
  bool gone = false;
  int checks = 0;
  const json document = SurveyResultsToJson(survey, aggregate, heavy, [&] {
    if (++checks == 50) gone = true;
    return gone;
  });
  for (const auto& question : document["questions"]) CHECK(question["error"] == kEstimationCancelled);

  // kde_sqp polls between objective evaluations.
  NumericEstimateOptions kde;
  kde.estimator = "kde_sqp";
  kde.estimation_cells = 200;
  int kde_polls = 0;
  const auto stopped = NumericResultToJson(NumericKindOf(survey.questions[0]), static_cast<const NumericAggregate&>(aggregate.question(0)), kde, [&] {
    if (++kde_polls < 20) return false;
    cancelled_at = std::chrono::steady_clock::now();
    return true;
  });
  CHECK(Seconds(cancelled_at) < 0.5);
  REQUIRE_FALSE(stopped);
  CHECK(stopped.error() == kEstimationCancelled);
  CHECK(stopped.error_code() == ErrorCode::kCancelled);
}

TEST_CASE("kde_sqp is refused above 200 estimation cells") {
  const Survey survey = BudgetSurvey();
  NumericEstimateOptions options;
  options.estimator = "kde_sqp";
  options.estimation_cells = 201;
  CHECK(ValidateNumericEstimateOptions(survey.questions[0], options).error() ==
        "estimator kde_sqp allows at most 200 estimation_cells (its solver's work grows like the cube of the cells), "
        "but is 201");
  options.estimation_cells = 200;
  CHECK(ValidateNumericEstimateOptions(survey.questions[0], options).ok());
}
