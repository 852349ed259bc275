// The "statistics" of a numeric question's results: each summary statistic of
// the fitted distribution with a 95% interval that holds three views of it,
// and a plain note when it should not be relied on.
//
// The interval is for the population the respondents were sampled from
// (interval_target.h: the bootstrap draws the answers afresh). It is the
// smallest one holding
//   - the bootstrap interval (bootstrap.h): the estimate +- 1.96 times the
//     replicates' root-mean-square error about their world, a less smoothed
//     pilot fit where the estimator smooths (so the smoothing's bias shows);
//     quantiles half an estimation cell more on each side;
//   - the pilot fit's own value: where the two fits disagree, the smoothing
//     decides the estimate, and the truth was often on the pilot's side
//     (answers concentrated in a few cells);
//   - for the mean and sd, the reports' own moments' intervals
//     (report_moments.h), which need no model of the answers. For RVNS they
//     come from the bias-aware linear fallback and are wide (the window
//     carries little about answers near the range's ends: answers piled at
//     the low end of [0, 1000] with a window of 100 had a fitted mean of 54
//     against 17, and a bootstrap interval of [19, 89]). When the fitted
//     value falls outside the moments' interval the fit is demonstrably off:
//     the note says so, and skewness and kurtosis are withheld (no value, no
//     interval: a fit whose mean or spread is off has no trustworthy shape).
//   - skewness and kurtosis also hold the reports' own raw moments' interval
//     (report_moments.h: the first four moments by linear_moments.h, the
//     delta method plus the bias bounds); where that does not exist because
//     the spread's interval reaches 0, they are withheld too.
// The estimate is always inside (every piece holds it or is widened to it).
//
// Quartiles are also widened by the estimator's blur. A single value v comes
// back from the estimator spread over [spread_low, spread_high] (its
// interquartile range, `Resolution`); answers concentrated within about that
// width are reconstructed that wide, and their quartiles moved outwards
// (answers at 2 +- 10 in [-90, 1450], Laplace epsilon 4: lower quartile -4,
// estimated -54). With IQR_f the fitted distribution's interquartile range
// and IQR_r the spread's, the answers' own IQR is about
// sqrt(IQR_f^2 - IQR_r^2) (blurs add in quadrature), so each quartile may sit
// (IQR_f - sqrt(IQR_f^2 - IQR_r^2))/2 from where the fit puts it: the
// interval is widened by that on each side (answers on a few values put a
// quartile at an atom the fit smooths over, either side). The median is not
// widened (numeric_statistics.cc says why). Where the fit shows answers
// clumped on a few values (two or more separate bumps, clumped_answers.h),
// values closer than IQR_r come back as one bump and a quantile the fit puts
// between two of them may be either: every quantile, the median too, is then
// widened by IQR_r on each side, with a note (years married in Fair's survey,
// the upper quartile the next value past a gap: covered 1 and 6 of 10
// surveys without it at n = 20,000). The CDF's and
// histogram's bands use the same blur, never less than 0.15 of IQR_r
// (kLeastBlurShare): the quadrature rule holds for one smooth bump, and a fit
// that smooths two peaks into one (answers at 30 +- 6 and 70 +- 6 in
// [0, 100], RVNS window 30, n = 3,000) is much wider than the blur while its
// CDF is off by more than the rule allows (the CDF band held the answers' CDF
// at 86% of points; 93% with the floor).
//
// Width (issue 26), build/coverage at n = 20,000 (Square Wave epsilon 1,
// Laplace epsilon 4, 10 surveys, 30 cells of library and real answers): the
// median over (cell, statistic) pairs of the median half-width over 1.96 x
// the estimate's RMSE about the population's value is 1.47 (mean 1.19, sd
// 1.40, median 1.70, quartiles 2.87 and 2.01); 1.38 before clumped answers
// were widened (median 1.40, quartiles 2.38 and 1.81), when years married's
// upper quartile covered 10% and 60%, now 100% and 90%; on the 20 cells
// where the earlier construction was measured too, 1.59 -> 1.52 (median 3.7
// -> 1.6).
//
// For these respondents (interval_target.h, "interval": "respondents") only
// the mean has an interval of its own: the reports' moments' mean with the
// randomisation's variance given the answers (report_moments.h); the other
// statistics keep the population interval and say so (kPopulationOnly).
// Every shown statistic carries "interval_for": "population" or "respondents".
//
// Notes (the "note" field, null when none), per statistic:
//   - "depends on the smoothing": the pilot's value lies outside the
//     bootstrap interval;
//   - "limited by the resolution": a quartile's widening for the blur is
//     larger than its bootstrap interval's half-width, or the fit shows
//     clumped answers (the note names the bumps and the widening);
//   - "too few reports": the interval spans more than half of what the
//     statistic can be (location statistics: the range; sd: half the range;
//     skewness: 2 units, too wide to tell left from right skew; kurtosis: 3
//     units, too wide to tell a normal tail from a heavy one);
//   - answers on a declared grid (answer_step.h): a quantile's value is the
//     nearest grid value and its interval is rounded outwards to the grid.
//   - not identifiable: when the reports carry nothing about the answers'
//     spread (Duchi; Hybrid at or below its epsilon*), every statistic but
//     the mean has no value and no interval, and the note says why.
#pragma once

#include <optional>

#include <nlohmann/json.hpp>

#include "core/distribution/bootstrap.h"
#include "core/kinds/numeric/answer_step.h"
#include "core/kinds/numeric/report_moments.h"
#include "core/survey/interval_target.h"

namespace deniable {

inline constexpr const char* kShapeUnresolved =
    "too few reports to pin the shape down: the reports' own moments leave the spread's interval reaching 0, so "
    "the fitted distribution's shape would be the smoothing's guess (in the coverage benchmark such intervals "
    "covered as little as 0% of the time)";
inline constexpr const char* kShapeWithheld =
    "the fitted distribution's mean or spread disagrees with the reports' own moments, so its shape cannot be "
    "trusted";
inline constexpr const char* kSpreadNotIdentifiable =
    "not identifiable: each report is one of two values whose probabilities depend only on the mean answer, so "
    "the reports say nothing about the answers' spread or shape";

// The summary statistics' names, in the order they are shown and exported.
inline constexpr const char* kSummaryStatisticNames[] = {"mean",           "std_dev",  "median",  "lower_quartile",
                                                         "upper_quartile", "skewness", "kurtosis"};

inline constexpr const char* kPopulationOnly =
    "interval for the population only: the bootstrap draws the answers afresh, and holding these respondents' "
    "answers fixed would need them, which the reports do not give";

inline constexpr double kLeastBlurShare = 0.15;  // of the spread's IQR, for the CDF's and histogram's bands (above)

struct Resolution {
  double value;        // where the single value was (the centre of the fitted median's cell)
  double spread_low;   // the re-estimate's lower quartile
  double spread_high;  // and upper quartile
};
nlohmann::json ResolutionToJson(const Resolution& resolution);

// How far the blur can have moved a quantile of the fitted distribution:
// (IQR_f - sqrt(IQR_f^2 - IQR_r^2))/2 (above). The statistics use it alone;
// the CDF's and histogram's bands use QuantileBlur, which is never less than
// kLeastBlurShare IQR_r.
double QuantileBlurInQuadrature(const SummaryStatistics& fitted, const Resolution& resolution);
double QuantileBlur(const SummaryStatistics& fitted, const Resolution& resolution);

// intervals: StatisticIntervals(sample) (the bootstrap's); moments: the
// reports' moment estimates when the mechanism has them; step: the answers'
// grid when the question declares one.
nlohmann::json NumericStatisticsToJson(const BootstrapSample& sample, const SummaryIntervals& intervals,
                                       const std::optional<ReportMomentEstimates>& moments,
                                       const Resolution& resolution, const std::optional<AnswerStep>& step,
                                       IntervalTarget target = IntervalTarget::kPopulation);

}  // namespace deniable
