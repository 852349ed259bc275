// Choosing PML's curvature penalty from the reports (core/distribution/curvature_penalty_choice.h).
#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "core/distribution/curvature_penalty_choice.h"
#include "core/numeric/duchi.h"
#include "core/distribution/numeric_histogram.h"
#include "core/numeric/square_wave.h"

using namespace deniable;

namespace {

// Expected output counts N T f: the noise-free reports of N answers drawn from f.
std::vector<double> ExpectedCounts(const TransitionMatrix& transition, const std::vector<double>& f, double values) {
  auto counts = transition.Apply(f);
  for (double& count : counts) count *= values;
  return counts;
}

// Cell masses of a density on 100 cells over [0, 1], normalised.
template <typename Density>
std::vector<double> Masses(Density density) {
  std::vector<double> f(100);
  double sum = 0.0;
  for (int i = 0; i < 100; ++i) sum += f[i] = density((i + 0.5) / 100.0);
  for (double& value : f) value /= sum;
  return f;
}

TransitionMatrix SquareWaveMatrix(double epsilon) {
  const auto wave = CreateSquareWave({0.0, 1.0}, epsilon).value();
  return TransitionMatrix::ForMechanism(*wave, 100, kDefaultHistogramCells).value();
}

}  // namespace

TEST_CASE("the marginal likelihood lowers the penalty for a narrow peak and keeps the rule for a line") {
  const TransitionMatrix transition = SquareWaveMatrix(2.0);
  const double values = 1e5;
  // A straight line has no curvature: no smoothing bias at any lambda, so
  // less smoothing only costs prior mass and LAML keeps the rule (one fit).
  const auto line = Masses([](double x) { return 0.5 + x; });
  const auto kept = ChooseCurvaturePenalty(ExpectedCounts(transition, line, values), transition).value();
  CHECK(kept.rule_penalty == doctest::Approx(1e-5 * std::sqrt(values)).epsilon(1e-9));
  CHECK(kept.penalty == kept.rule_penalty);
  CHECK(kept.fits == 2);
  // A peak with sd 1/12 of the range on a uniform floor (the sleep-hours
  // example's shape): the rule over-smooths it and LAML asks for less.
  const auto peak = Masses([](double x) { return 0.2 + 0.8 * 4.79 * std::exp(-0.5 * std::pow((x - 0.58) * 12.0, 2)); });
  const auto lowered = ChooseCurvaturePenalty(ExpectedCounts(transition, peak, values), transition).value();
  MESSAGE("narrow peak: rule " << lowered.rule_penalty << ", chosen " << lowered.penalty << " after " << lowered.fits
                               << " fits");
  CHECK(lowered.penalty < lowered.rule_penalty / 3.0);
  CHECK(lowered.penalty >= kMinChosenCurvaturePenalty);
  // Each step is half a decade: the choice is the rule times 10^(-j/2).
  const double steps = 2.0 * std::log10(lowered.rule_penalty / lowered.penalty);
  CHECK(steps == doctest::Approx(std::round(steps)).epsilon(1e-9));
  CHECK(lowered.fits == static_cast<int>(std::round(steps)) + 2);
}

TEST_CASE("the effective dimension falls as the penalty grows, between 1 and m - 1") {
  const TransitionMatrix transition = SquareWaveMatrix(1.0);
  const auto f = Masses([](double x) { return 1.0 + std::sin(6.0 * x); });
  const auto counts = ExpectedCounts(transition, f, 1e4);
  double previous = 1e9;
  for (double penalty : {1e-6, 1e-4, 1e-2, 1.0}) {
    EmsOptions options;
    options.curvature_penalty = penalty;
    const auto fit = EstimateEms(counts, transition, options).value();
    const SmoothnessCriteria criteria = EvaluateSmoothness(counts, transition, fit, penalty);
    INFO("lambda " << penalty);
    CHECK(std::isfinite(criteria.laplace_marginal_likelihood));
    CHECK(criteria.effective_dimension > 1.0);  // a straight line is never penalised
    CHECK(criteria.effective_dimension < 99.0);
    CHECK(criteria.effective_dimension < previous);
    previous = criteria.effective_dimension;
  }
}

TEST_CASE("a channel that identifies only the mean (Duchi) keeps the rule") {
  // Duchi's reports take two values, so the likelihood is flat in every
  // direction but the mean and LAML gains nothing by lowering lambda; without
  // the minimum gain the walk went down to the floor.
  const auto duchi = CreateDuchi({0.0, 1.0}, 1.0).value();
  const auto transition = TransitionMatrix::ForMechanism(*duchi, 100, kDefaultHistogramCells).value();
  const auto peak = Masses([](double x) { return std::exp(-0.5 * std::pow((x - 0.4) * 10.0, 2)); });
  const auto choice = ChooseCurvaturePenalty(ExpectedCounts(transition, peak, 2e4), transition).value();
  CHECK(choice.penalty == choice.rule_penalty);
  CHECK(choice.fits == 2);
}

TEST_CASE("the criteria are undefined where Z'(H + S)Z is singular") {
  // With no reports H = 0, and S does not penalise straight lines: Z'(H + S)Z
  // is singular, whatever sign rounding gives its last Cholesky pivot.
  const TransitionMatrix transition = SquareWaveMatrix(1.0);
  const auto f = Masses([](double x) { return 1.0 + x; });
  EmsOptions options;
  options.curvature_penalty = 1e-4;
  const auto fit = EstimateEms(ExpectedCounts(transition, f, 1e4), transition, options).value();
  const std::vector<double> no_reports(transition.output_cells(), 0.0);
  for (double penalty : {1e-300, 1e-4, 1.0}) {
    const SmoothnessCriteria criteria = EvaluateSmoothness(no_reports, transition, fit, penalty);
    INFO("lambda " << penalty);
    CHECK(criteria.laplace_marginal_likelihood == -std::numeric_limits<double>::infinity());
    CHECK(std::isnan(criteria.effective_dimension));
  }
}
