// The answers' mean and standard deviation straight from the reports' own
// moments, with 95% intervals that need no model of the answers' shape: the
// check on the fitted distribution's statistics where they are most at risk.
//
// For mechanisms whose reported value y has E[y|x] = A0 + A1 u and
// E[y^2|x] = B0 + B1 u + B2 u^2 in u = (x - low)/W (NumericMechanism::
// report_moments: Laplace, Duchi, Piecewise, Hybrid, Square Wave), averaging
// over the respondents gives
//   E[ybar]   = A0 + A1 m1,            m1 = mean of u,
//   E[y2bar]  = B0 + B1 m1 + B2 m2,    m2 = mean of u^2,
// so m1 and m2 are linear in the reports' mean and mean square: unbiased for
// the respondents' own values, with no smoothing and no grid. The variance of
// the answers is W^2 (m2 - m1^2), the mean low + W m1. Intervals: the delta
// method over the reports' covariance of (y, y^2) (its third and fourth
// moments from the histogram's cells, whose width is 1/1024 of the output
// range), z = 1.96; the sd's interval is the square root of the variance's
// (clipped at 0).
//
// Why: the fitted distribution's standard deviation was biased (Laplace
// epsilon = 4 on a normal answer, n = 3000: 13.7 on average against 12) and its
// bootstrap interval covered 5 of 8 times; the moment interval is unbiased by
// construction and its width is the channel's true noise (+-4 here).
//
// For mechanisms without such closed forms (RVNS) and a transition matrix,
// the same two moments come from linear_moments.h: bias-aware linear
// estimates from the output counts, whose intervals add the worst-case bias.
//
// When B2 = 0 the reports do not depend on the answers' spread at all (Duchi,
// and Hybrid at or below its epsilon*: a report is one of two values), so no
// statistic but the mean is identifiable: spread_identifiable is false.
#pragma once

#include <optional>

#include "core/distribution/numeric_histogram.h"
#include "core/distribution/transition_matrix.h"
#include "core/numeric/numeric_mechanism.h"

namespace deniable {

struct MomentInterval {
  double value;
  double low;
  double high;
};

struct ReportMomentEstimates {
  // true: from the closed-form moments (exact, efficient); false: the
  // bias-aware linear fallback, whose worst-case bias bound makes it wide.
  bool closed_form = true;
  MomentInterval mean;
  // The mean's interval for these respondents only (interval_target.h), from
  // the closed forms: the randomisation's variance given the answers,
  // Var(ybar | x) = mean over respondents of Var(y|x_i) = (b0 - a0^2) +
  // (b1 - 2 a0 a1) m1 + (b2 - a1^2) m2, a linear function of the answers'
  // first two moments, so the moments' estimates give it (m2 clipped to what
  // [0, 1] allows, [m1^2, m1]; its largest value there when the spread is not
  // identifiable). The population interval above also counts the sampling of
  // the answers (the reports' whole variance). Empty for the linear fallback.
  std::optional<MomentInterval> respondents_mean;
  bool spread_identifiable = false;
  double variance = 0.0;  // of the answers, unbiased, so it can be negative; when identifiable
  std::optional<MomentInterval> standard_deviation;  // its square root (0 below zero); when identifiable
  // From the linear estimates of the first four raw moments (linear_moments.h,
  // any mechanism, with a transition matrix): the delta method plus the bias
  // bounds times the gradient. Empty when the variance's interval reaches 0.
  std::optional<MomentInterval> skewness;
  std::optional<MomentInterval> kurtosis;
};

// Empty when fewer than 2 reports were counted, or when the mechanism has no
// polynomial report moments (RVNS) and no transition matrix (on the
// histogram's output cells) is given.
std::optional<ReportMomentEstimates> EstimateFromReportMoments(const NumericMechanism& mechanism,
                                                               const NumericHistogram& histogram,
                                                               const TransitionMatrix* transition = nullptr);

}  // namespace deniable
