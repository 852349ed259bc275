#include "core/kinds/numeric/numeric_statistics.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "core/common/validation.h"
#include "core/kinds/numeric/clumped_answers.h"

namespace deniable {
namespace {

using nlohmann::json;

struct StatisticSpec {
  const char* name;
  double SummaryStatistics::*field;
  BootstrapInterval SummaryIntervals::*interval;
  bool needs_spread;  // unidentifiable without the answers' spread
  bool quantile;      // widened for the estimator's blur
  bool shape;         // skewness, kurtosis: withheld when the fit contradicts the moments
};

constexpr StatisticSpec kStatistics[] = {
    {"mean", &SummaryStatistics::mean, &SummaryIntervals::mean, false, false, false},
    {"std_dev", &SummaryStatistics::standard_deviation, &SummaryIntervals::standard_deviation, true, false, false},
    {"median", &SummaryStatistics::median, &SummaryIntervals::median, true, true, false},
    {"lower_quartile", &SummaryStatistics::lower_quartile, &SummaryIntervals::lower_quartile, true, true, false},
    {"upper_quartile", &SummaryStatistics::upper_quartile, &SummaryIntervals::upper_quartile, true, true, false},
    {"skewness", &SummaryStatistics::skewness, &SummaryIntervals::skewness, true, false, true},
    {"kurtosis", &SummaryStatistics::kurtosis, &SummaryIntervals::kurtosis, true, false, true},
};

// The fitted mean or sd lies outside the reports' own moment interval.
bool FitContradictsMoments(const SummaryStatistics& fitted, const std::optional<ReportMomentEstimates>& moments) {
  if (!moments) return false;
  auto outside = [](double value, const MomentInterval& interval) { return value < interval.low || value > interval.high; };
  return outside(fitted.mean, moments->mean) ||
         (moments->standard_deviation && outside(fitted.standard_deviation, *moments->standard_deviation));
}

void Include(BootstrapInterval& interval, double value) {
  interval.low = std::min(interval.low, value);
  interval.high = std::max(interval.high, value);
}

// Widest interval that still says something, per statistic.
double UsefulWidth(const std::string& name, NumericRange range) {
  if (name == "std_dev") return 0.25 * range.width();  // half of what an sd in [a, b] can be
  if (name == "skewness") return 2.0;
  if (name == "kurtosis") return 3.0;
  return 0.5 * range.width();
}

std::string WidthNote(const std::string& name, const BootstrapInterval& interval, NumericRange range) {
  const double width = interval.high - interval.low;
  if (!(width > UsefulWidth(name, range))) return "";
  if (name == "skewness") return "too few reports: the interval is too wide to tell left from right skew";
  if (name == "kurtosis") return "too few reports: the interval is too wide to tell a normal tail from a heavy one";
  const double share = name == "std_dev" ? width / (0.5 * range.width()) : width / range.width();
  return "too few reports: the interval spans " + std::to_string(static_cast<int>(std::lround(100.0 * share))) +
         "% of what it can be";
}

const MomentInterval* MomentsFor(const std::string& name, const std::optional<ReportMomentEstimates>& moments) {
  if (!moments) return nullptr;
  if (name == "mean") return &moments->mean;
  if (name == "std_dev" && moments->standard_deviation) return &*moments->standard_deviation;
  if (name == "skewness" && moments->skewness) return &*moments->skewness;
  if (name == "kurtosis" && moments->kurtosis) return &*moments->kurtosis;
  return nullptr;
}

// How far the estimator's blur can have moved a quantile from where the fit
// puts it.
struct QuantileBlurs {
  double smooth;  // QuantileBlurInQuadrature: answers smooth at the resolution's scale
  double clumped;  // a single value's spread (IQR) where the fit shows clumped answers (clumped_answers.h), else 0
  int bumps;       // the fit's separate bumps
};

struct StatisticInputs {
  const SummaryStatistics& fitted;
  const SummaryStatistics& pilot;
  bool has_pilot;
  const SummaryIntervals& intervals;
  const std::optional<ReportMomentEstimates>& moments;
  QuantileBlurs quantile_blurs;
  NumericRange range;
  const std::optional<AnswerStep>& step;
};

std::string ClumpedNote(const QuantileBlurs& blurs) {
  return "limited by the resolution: the fitted curve has " + std::to_string(blurs.bumps) +
         " separate bumps, so the answers may sit on a few values that the estimator cannot tell apart (at this "
         "number of reports a single value is reconstructed spread over about " +
         FormatSignificant(blurs.clumped, 3) +
         " in the question's unit), and a quantile between two of them may be either (the interval was widened by "
         "about " + FormatSignificant(blurs.clumped, 3) + " on each side)";
}

// Widens a quantile's interval by the blur on each side. Where the answers
// are one smooth bump de-blurring moves a quartile towards the median, but
// answers on a few values put it at a value the fit smooths over, on either
// side. The median is not widened for smooth answers: a blur spreads answers
// both ways, and where it moves the median (skewed answers) the pilot fit
// moves it too, which the bootstrap's bias term holds; a median in a gap is
// held by the CDF band's range. (The blur on the median made its interval
// 2.5-3.5 times the exact width on smooth answers at n = 20,000:
// bench/coverage.cc.)
//
// Where the fit shows clumped answers (separate bumps, clumped_answers.h)
// every quantile is widened by a single value's spread (IQR_r, Resolution):
// values closer than that come back as one bump, so a quantile the fit puts
// between two of them may be either. (Years married, 74.4% at 13 or less and
// the next value 16.5, undeclared step, at n = 20,000: the fitted CDF crossed
// 0.75 at 13.8-15.7 inside the gap; the pilot world was as smooth, so the
// replicates never saw the error, and the CDF band missed too (at 16.44 band
// [0.753, 0.887], truth 0.744). The quadrature blur alone held 16.5 in 1 and
// 6 of 10 surveys (Laplace epsilon 4, Square Wave epsilon 1); half the spread
// on clumped fits 9 and 7, the fit at 13.8 while the truth was 16.5; the
// whole spread 10 and 9; at Laplace epsilon 1, Piecewise epsilon 1 and 4,
// Hybrid epsilon 4, Square Wave epsilon 4 and RVNS with a 10% window,
// 90/30/100/100/90/70% -> 90/90/100/100/100/100%. Widening every quartile
// of every fit by half the spread instead took the width ratio over all
// (cell, statistic) pairs from 1.56 to 1.68: smooth answers pay for it
// everywhere.) The note says why.
std::string WidenForBlur(BootstrapInterval& interval, const std::string& name, const QuantileBlurs& blurs,
                         NumericRange range) {
  const double smooth = name == "median" ? 0.0 : blurs.smooth;
  const double blur = std::max(smooth, blurs.clumped);
  if (!(blur > 0.0)) return "";
  std::string note;
  if (blurs.clumped > 0.0) {
    note = ClumpedNote(blurs);
  } else if (blur > 0.5 * (interval.high - interval.low)) {
    note = "limited by the resolution: at this number of reports a single value is reconstructed spread over about " +
           FormatSignificant(blur * 2.0, 3) + " or more, in the question's unit (the interval was widened by about " +
           FormatSignificant(blur, 3) + " on each side)";
  }
  interval.low = std::max(range.low, interval.low - blur);
  interval.high = std::min(range.high, interval.high + blur);
  return note;
}

// Includes the pilot's value; the note when it was outside.
std::string WidenForPilot(BootstrapInterval& interval, double pilot_value) {
  const bool outside = pilot_value < interval.low || pilot_value > interval.high;
  Include(interval, pilot_value);
  if (!outside) return "";
  return "depends on the smoothing: a fit with far less smoothing gives " + FormatNumber(pilot_value) +
         " (the interval was widened to hold it)";
}

// Includes the reports' own moment interval; the note when the fitted value
// was outside it. (Including it only then narrowed the mean's and sd's
// intervals from 1.5 to 1.1 and 0.9 times the exact width at n = 20,000, but
// answers piled near an end covered 10-50%: the fit's mean and sd were off
// while inside the wide moment interval, bench/coverage.cc.)
std::string WidenForMoments(BootstrapInterval& interval, double value, const MomentInterval& moment) {
  const bool inconsistent = value < moment.low || value > moment.high;
  Include(interval, moment.low);
  Include(interval, moment.high);
  Include(interval, moment.value);
  if (!inconsistent) return "";
  return "the fitted distribution disagrees with the reports' own moments (" + FormatNumber(moment.low) + " to " +
         FormatNumber(moment.high) + "); the interval was widened to hold them";
}

// What the statistic can be (the pieces may reach past it).
void ClampToPossible(BootstrapInterval& interval, const StatisticSpec& spec, NumericRange range) {
  const std::string name = spec.name;
  if (spec.quantile || name == "mean") interval = {std::max(interval.low, range.low), std::min(interval.high, range.high)};
  if (name == "std_dev") interval = {std::max(interval.low, 0.0), std::min(interval.high, 0.5 * range.width())};
}

json StatisticToJson(const StatisticSpec& spec, const StatisticInputs& in) {
  double value = in.fitted.*spec.field;
  BootstrapInterval interval = in.intervals.*spec.interval;
  // The first reason given is kept: the widening that moved the interval most comes first.
  // (Capping the blur at how far the pilot fit moves the quartile narrowed
  // smooth answers' intervals at n = 20,000, but at n = 3,000 the pilot is
  // blurred too: a lower quartile of answers piled near 0 covered 5 of 10.)
  std::string note = spec.quantile ? WidenForBlur(interval, spec.name, in.quantile_blurs, in.range) : "";
  if (in.has_pilot) {
    const std::string pilot_note = WidenForPilot(interval, in.pilot.*spec.field);
    if (note.empty()) note = pilot_note;
  }
  if (const MomentInterval* moment = MomentsFor(spec.name, in.moments)) {
    const std::string moment_note = WidenForMoments(interval, value, *moment);
    if (!moment_note.empty()) note = moment_note;  // the strongest evidence against the fit
  }
  Include(interval, value);
  ClampToPossible(interval, spec, in.range);
  if (spec.quantile && in.step) {
    // The answers' quantile is a grid value, so it lies in [low, high] exactly
    // when it lies between the ends' nearest grid values; the rounded value
    // (between them) stays inside. (Rounding outwards added up to a step on
    // each side: a 1-10 rating's quartile shown +-0.1 wider than needed.)
    interval = {in.step->Nearest(interval.low), in.step->Nearest(interval.high)};
    value = in.step->Nearest(value);
  }
  if (note.empty()) note = WidthNote(spec.name, interval, in.range);
  return {{"value", value}, {"low", interval.low}, {"high", interval.high},
          {"note", note.empty() ? json(nullptr) : json(note)}, {"interval_for", "population"}};
}

json Withheld(const char* reason) {
  return {{"value", nullptr}, {"low", nullptr}, {"high", nullptr}, {"note", reason}, {"interval_for", nullptr}};
}

// For these respondents (interval_target.h): the mean from the reports' own
// moments with the randomisation's variance given the answers
// (report_moments.h); the others keep their population interval and say why.
void ForRespondents(json& statistics, const std::optional<ReportMomentEstimates>& moments) {
  for (auto& [name, statistic] : statistics.items()) {
    if (statistic["value"].is_null()) continue;
    if (name == "mean" && moments && moments->respondents_mean) {
      const MomentInterval& mean = *moments->respondents_mean;
      statistic = {{"value", mean.value}, {"low", mean.low}, {"high", mean.high},
                   {"note", "for these respondents: the reports' own mean, with the randomisation's variance given "
                            "the answers"},
                   {"interval_for", "respondents"}};
      continue;
    }
    statistic["interval_for"] = "population";
    statistic["note"] = std::string(kPopulationOnly) +
                        (statistic["note"].is_string() ? "; " + statistic["note"].get<std::string>() : "");
  }
}

}  // namespace

double QuantileBlurInQuadrature(const SummaryStatistics& fitted, const Resolution& resolution) {
  const double fitted_iqr = fitted.upper_quartile - fitted.lower_quartile;
  const double blur_iqr = resolution.spread_high - resolution.spread_low;
  return 0.5 * (fitted_iqr - std::sqrt(std::max(0.0, fitted_iqr * fitted_iqr - blur_iqr * blur_iqr)));
}

double QuantileBlur(const SummaryStatistics& fitted, const Resolution& resolution) {
  const double blur_iqr = resolution.spread_high - resolution.spread_low;
  return std::max(QuantileBlurInQuadrature(fitted, resolution), kLeastBlurShare * blur_iqr);
}

json ResolutionToJson(const Resolution& resolution) {
  return {{"value", resolution.value}, {"spread_low", resolution.spread_low}, {"spread_high", resolution.spread_high}};
}

json NumericStatisticsToJson(const BootstrapSample& sample, const SummaryIntervals& intervals,
                             const std::optional<ReportMomentEstimates>& moments, const Resolution& resolution,
                             const std::optional<AnswerStep>& step, IntervalTarget target) {
  const SummaryStatistics fitted = Summarize(sample.fitted);
  const bool has_pilot = sample.drawn_from_pilot();
  const SummaryStatistics pilot = has_pilot ? Summarize(sample.world) : fitted;
  const bool spread_identifiable = !moments || moments->spread_identifiable;
  const bool fit_inconsistent = FitContradictsMoments(fitted, moments);
  // Clumped answers: unless a declared grid is at least as coarse as the
  // spread (then the estimator tells its values apart, and the quantile is
  // rounded to one of them: a 1-5 rating's five bumps).
  const int bumps = SeparateBumps(sample.fitted);
  const double spread = resolution.spread_high - resolution.spread_low;
  const bool clumped = bumps > 1 && !(step && step->step() >= spread);
  const QuantileBlurs blurs{QuantileBlurInQuadrature(fitted, resolution), clumped ? spread : 0.0, bumps};
  json statistics = json::object();
  for (const StatisticSpec& spec : kStatistics) {
    if (spec.needs_spread && !spread_identifiable) {
      statistics[spec.name] = Withheld(kSpreadNotIdentifiable);
      continue;
    }
    if (spec.shape && fit_inconsistent) {
      statistics[spec.name] = Withheld(kShapeWithheld);
      continue;
    }
    if (spec.shape && moments && !MomentsFor(spec.name, moments)) {
      statistics[spec.name] = Withheld(kShapeUnresolved);
      continue;
    }
    const StatisticInputs inputs{fitted, pilot, has_pilot, intervals, moments, blurs, sample.fitted.range, step};
    statistics[spec.name] = StatisticToJson(spec, inputs);
  }
  if (target == IntervalTarget::kRespondents) ForRespondents(statistics, moments);
  return statistics;
}

}  // namespace deniable
