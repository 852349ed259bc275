// Statistical helpers for the tests: distribution functions, goodness of fit,
// exact binomial confidence bounds, and the black-box empirical-epsilon audit.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "core/frequency/categorical_mechanism.h"
#include "core/common/random_source.h"

namespace deniable::testing {

// The mean of a sample, and its variance with n - 1 in the denominator
// (unbiased): what the statistical tests compare with a formula.
double SampleMean(const std::vector<double>& values);
double SampleVariance(const std::vector<double>& values);

// Regularised lower incomplete gamma P(a, x) and the chi-square survival function.
double RegularizedGammaP(double a, double x);
double ChiSquareSurvival(double statistic, double degrees_of_freedom);

// Pearson chi-square goodness of fit; returns the p-value. Cells with expected < 5 are pooled.
double ChiSquarePValue(const std::vector<std::int64_t>& observed, const std::vector<double>& probabilities);

// Regularised incomplete beta I_x(a, b) and exact (Clopper-Pearson) one-sided bounds.
double RegularizedBeta(double a, double b, double x);
double BinomialLowerBound(std::int64_t successes, std::int64_t trials, double alpha);
double BinomialUpperBound(std::int64_t successes, std::int64_t trials, double alpha);

// Empirical-epsilon audit of a categorical mechanism, treated as a black box.
// For two answers x0, x1 it samples `trials` reports from each and, for the
// events "j supported", "j not supported", "j supported and j' not" over
// j, j' in {x0, x1}, bounds ln(P(E | x0) / P(E | x1)) (both directions).
// lower_bound is a (1 - alpha) lower confidence bound on the mechanism's true
// epsilon (Bonferroni over events): it exceeds the true epsilon with
// probability at most alpha. point is the largest plug-in ratio.
struct AuditResult {
  double lower_bound;
  double point;
};
using PerturbFunction = std::function<Support(int answer, RandomSource& random)>;
AuditResult AuditEpsilon(const PerturbFunction& perturb, int x0, int x1, std::int64_t trials, double alpha,
                         std::uint64_t seed);

// The audit's bounds from event counts: hits0[e] and hits1[e] reports of `trials`
// per input fell in event e. Shared by the categorical and numeric audits.
AuditResult EpsilonFromEventCounts(const std::vector<std::int64_t>& hits0, const std::vector<std::int64_t>& hits1,
                                   std::int64_t trials, double alpha);

// The stochastic DP test of a histogram release (in the style of Google's
// stochastic tester): `trials` releases of each of two neighbouring
// histograms, the whole output vector as the event, and the largest log ratio
// the counts show beyond doubt (each side bounded by 5 standard deviations)
// over events seen often enough. A lower bound on the release's epsilon.
using HistogramReleaser = std::function<std::vector<double>(const std::vector<std::int64_t>&, RandomSource&)>;
double StochasticEpsilonLowerBound(const HistogramReleaser& release, const std::vector<std::int64_t>& a,
                                   const std::vector<std::int64_t>& b, int trials, std::uint64_t seed);

}  // namespace deniable::testing
