#include "core/kinds/numeric/numeric_results.h"

#include <optional>
#include <cmath>
#include <numeric>

#include "core/numeric/levels/levels_mechanism.h"
#include "core/distribution/bootstrap.h"
#include "core/kinds/numeric/blur_bands.h"
#include "core/kinds/numeric/detection_limits.h"
#include "core/kinds/numeric/empty_tails.h"
#include "core/kinds/numeric/unsupported_bumps.h"
#include "core/kinds/numeric/numeric_statistics.h"
#include "core/kinds/numeric/report_moments.h"
#include "core/distribution/coarse_to_fine.h"
#include "core/distribution/curvature_penalty_choice.h"
#include "core/distribution/distribution_summary.h"
#include "core/distribution/ems_estimator.h"
#include "core/distribution/estimate_fit.h"
#include "core/frequency/frequency_estimator.h"
#ifdef DENIABLE_WITH_NLOPT
#include "core/distribution/kde_sqp_estimator.h"
#endif
#include "core/numeric/numeric_mechanism_factory.h"
#include "core/distribution/transition_matrix.h"
#include "core/common/validation.h"
#include "core/common/work_budget.h"

namespace deniable {
namespace {

using nlohmann::json;

double DefaultBinWidth(const NumericQuestionKind& question) { return question.range().width() / 20.0; }

std::optional<BandMethod> IntervalMethodOf(const std::string& name) {
  if (name == "bias_aware") return BandMethod::kBiasAware;
  if (name == "basic") return BandMethod::kBasic;
  if (name == "percentile") return BandMethod::kPercentile;
  return std::nullopt;
}

json Curve(const std::vector<double>& points, const std::vector<double>& values, const BootstrapBand& band) {
  return {{"points", points}, {"value", values}, {"low", band.low}, {"high", band.high}};
}

// The unbiased mean of the reported values, for mechanisms whose reports are
// unbiased for x: the sample mean with its standard error (a CLT interval).
json UnbiasedMean(const NumericMechanism& mechanism, const NumericHistogram& histogram) {
  if (!mechanism.UnbiasedValueVariance(mechanism.input_range().low) || histogram.values() < 2) return nullptr;
  const double count = static_cast<double>(histogram.values());
  const double mean = histogram.sum() / count;
  const double variance = std::max(0.0, (histogram.sum_of_squares() - count * mean * mean) / (count - 1.0));
  const double se = std::sqrt(variance / count);
  // The reports' whole variance: sampling and randomisation (interval_target.h).
  return {{"value", mean}, {"std_error", se}, {"ci_low", mean - kZ95 * se}, {"ci_high", mean + kZ95 * se},
          {"interval_for", "population"}};
}

// The mechanism's own estimates from the exact counts of its report values
// (levels: HierA's mean and the levels' shares), or null.
json MechanismEstimates(const NumericMechanism& mechanism, const NumericAggregate& aggregate,
                        const NumericEstimateOptions& options) {
  if (aggregate.atom_counts().empty() || aggregate.n() == 0) return nullptr;
  auto estimates =
      MechanismEstimateFromAtoms(mechanism, aggregate.atom_counts(), {options.mu, options.clamp, options.target});
  if (!estimates) return {{"error", estimates.error()}};
  return std::move(estimates).value();
}

// Input cell probabilities estimated from output counts, and how the run ended.
struct CellEstimate {
  std::vector<double> probabilities;
  EstimateFit fit;
};
// Estimates from counts, charging its work to `budget` (not null).
using CountsEstimator = std::function<Result<CellEstimate>(const std::vector<double>& counts, WorkBudget* budget)>;

bool CutShort(const EstimateFit& fit) { return fit.stopped_by == "work_budget"; }

// The bootstrap's replicates share what is left of the question's budget.
// A replicate's cost varies (warm-started PML took 30 to 975 map steps in one
// default-options document), so each may use up to kReplicateShareFactor
// times an equal share of what is left, but never so much that the replicates
// after it would get less than a quarter of an equal share of the bootstrap's
// budget each: when the budget is short every replicate still gets some.
constexpr std::int64_t kReplicateShareFactor = 8;

struct ReplicateBudgets {
  WorkBudget* question;
  int replicates;
  std::int64_t floor_each = 0;  // set when the bootstrap starts
  int started = 0;
  int cut_short = 0;
};

std::int64_t NextReplicateShare(ReplicateBudgets& budgets) {
  const std::int64_t remaining = budgets.question->remaining();
  if (budgets.started == 0) budgets.floor_each = remaining / (4 * std::int64_t{budgets.replicates});
  const std::int64_t left = std::max(1, budgets.replicates - budgets.started);
  const std::int64_t generous = remaining / left * std::min(left, kReplicateShareFactor);
  return std::max<std::int64_t>(0, std::min(generous, remaining - budgets.floor_each * (left - 1)));
}

// The bootstrap needs only the probabilities.
Reestimator ProbabilitiesOnly(CountsEstimator estimate, ReplicateBudgets* budgets) {
  return [estimate = std::move(estimate), budgets](const std::vector<double>& counts) -> Result<std::vector<double>> {
    WorkBudget share(*budgets->question, NextReplicateShare(*budgets));
    ++budgets->started;
    DENIABLE_ASSIGN_OR_RETURN(auto cells, estimate(counts, &share));
    if (CutShort(cells.fit)) ++budgets->cut_short;
    return std::move(cells).probabilities;
  };
}

EmSmoothing SmoothingOf(const std::string& estimator) {
  if (estimator == "ems") return EmSmoothing::kBinomial;
  if (estimator == "em") return EmSmoothing::kNone;
  return EmSmoothing::kCurvature;
}

// Warm starts for the re-estimates of the bootstrap (empty: none).
struct WarmStarts {
  std::vector<double> fine;    // on the estimation grid
  std::vector<double> coarse;  // on the coarse grid of coarse-to-fine PML
};

// Bootstrap re-estimates stop at 1e-8 nats per value instead of 1e-10, which
// halves to quarters the cost of a results document. Measured (RVNS d = 2, k = 2,
// chi-square 2 and 5, n = 10^4 and 10^5, 200 replicates, same seed): interval
// ends of mean, sd, median and density moved by at most 6% of the interval's
// width, less than the Monte Carlo error of a 2.5% quantile from 200 replicates.
constexpr double kReplicatePerValueTolerance = 1e-8;

#ifdef DENIABLE_WITH_NLOPT
// The RVNS paper's pipeline (kde_sqp_estimator.h) on the estimation grid.
CountsEstimator MakeKdeSqpEstimator(const NumericQuestionKind& question, const NumericHistogram& histogram,
                                    const NumericEstimateOptions& options) {
  const auto density = question.mechanism().transition_density();  // ValidateNumericEstimateOptions checked it
  KdeSqpOptions settings;
  settings.points = options.estimation_cells;
  const NumericRange output = histogram.range();
  const NumericRange input = question.range();
  return [=](const std::vector<double>& counts, WorkBudget* budget) -> Result<CellEstimate> {
    KdeSqpOptions charged = settings;
    charged.solver.budget = budget;
    DENIABLE_ASSIGN_OR_RETURN(auto fit, EstimateKdeSqp(output, counts, input, density, charged));
    return CellEstimate{fit.probabilities, FitOfKdeSqp(fit)};
  };
}
#endif

// PML, EMS or EM (ems_estimator.h). Warm starts apply only to the estimators
// whose result does not depend on the start (pml, em: they converge to an
// optimum; EMS's result depends on where it stops, so it always starts at the
// uniform distribution). `coarse` (non-null): PML runs coarse-to-fine.
CountsEstimator MakeEmEstimator(const TransitionMatrix& transition, const TransitionMatrix* coarse,
                                const NumericEstimateOptions& options, WarmStarts starts) {
  EmsOptions settings;
  settings.smoothing = SmoothingOf(options.estimator);
  settings.curvature_penalty = options.curvature_penalty;
  settings.max_iterations = options.max_iterations;
  const bool start_matters = settings.smoothing == EmSmoothing::kBinomial;
  const bool replicate = !starts.fine.empty();
  if (replicate && !start_matters) settings.per_value_tolerance = kReplicatePerValueTolerance;
  if (coarse != nullptr) {
    const CoarseToFineStarts coarse_starts{std::move(starts.coarse)};
    return [&transition, coarse, settings, coarse_starts](const std::vector<double>& counts,
                                                          WorkBudget* budget) -> Result<CellEstimate> {
      EmsOptions charged = settings;
      charged.budget = budget;
      DENIABLE_ASSIGN_OR_RETURN(auto fit, EstimateCoarseToFine(counts, *coarse, transition, charged, coarse_starts));
      return CellEstimate{fit.probabilities,
                          FitOfCoarseToFine(fit, coarse->input_cells(), transition.input_cells())};
    };
  }
  if (!start_matters) settings.start = std::move(starts.fine);
  return [&transition, settings](const std::vector<double>& counts, WorkBudget* budget) -> Result<CellEstimate> {
    EmsOptions charged = settings;
    charged.budget = budget;
    DENIABLE_ASSIGN_OR_RETURN(auto fit, EstimateEms(counts, transition, charged));
    return CellEstimate{fit.probabilities, FitOfEm(fit, settings.max_iterations)};
  };
}

// The bootstrap's world (bootstrap.h) for the smoothing estimators: the same
// estimator with a thousandth of the curvature penalty (PML), or without the
// smoothing step (EMS: plain EM). Data drawn from the smooth fit itself hide
// the smoothing's bias; drawn from this rougher pilot they show it. Measured
// (build/coverage --quick, 8 seeds): quartiles of answers concentrated in 3% of
// the range, Square Wave epsilon 1, covered 0 and 50% -> 75 and 100%.
constexpr double kPilotPenaltyFactor = 1e-3;

std::optional<NumericEstimateOptions> PilotOptions(const NumericEstimateOptions& chosen) {
  NumericEstimateOptions pilot = chosen;
  if (chosen.estimator == "pml") {
    pilot.curvature_penalty = chosen.curvature_penalty.value_or(0.0) * kPilotPenaltyFactor;
    return pilot;
  }
  if (chosen.estimator == "ems") {
    pilot.estimator = "em";
    return pilot;
  }
  return std::nullopt;  // em has no smoothing; kde_sqp's bandwidth is the paper's
}

// The chosen estimator; `starts` non-empty for the bootstrap's re-estimates.
CountsEstimator MakeEstimator(const NumericQuestionKind& question, const NumericHistogram& histogram,
                              const TransitionMatrix& transition, const TransitionMatrix* coarse,
                              const NumericEstimateOptions& options, WarmStarts starts = {}) {
#ifdef DENIABLE_WITH_NLOPT
  if (options.estimator == "kde_sqp") return MakeKdeSqpEstimator(question, histogram, options);
#else
  (void)question;
  (void)histogram;
#endif
  return MakeEmEstimator(transition, coarse, options, std::move(starts));
}

// The density's band is for the density averaged over a window (blur_bands.h)
// no narrower than the estimator's blur or half a histogram bin, doubled
// (at most four times, and to no more than an eighth of the range) while the
// band is on average wider than half the curve's peak: a band for a narrow
// window is honest but says little (a normal answer at n = 3000 had a band
// 1.2 times its peak height wide with half-bin windows).
std::pair<double, BootstrapBand> ChooseDensityWindow(const std::vector<double>& points, const BootstrapBand& cdf_band,
                                                      NumericRange range, double smallest,
                                                      const std::vector<double>& density) {
  const double peak = *std::max_element(density.begin(), density.end());
  double half_window = smallest;
  for (int doubling = 0;; ++doubling) {
    BootstrapBand band = WindowedDensityBand(points, cdf_band, range, half_window, density);
    double width = 0.0;
    for (std::size_t k = 0; k < points.size(); ++k) {
      width += (band.high[k] - band.low[k]) / static_cast<double>(points.size());
    }
    if (width <= 0.5 * peak || doubling == 4 || 2.0 * half_window > range.width() / 8.0) return {half_window, band};
    half_window *= 2.0;
  }
}

json BaseDocument(const NumericQuestionKind& question, const NumericAggregate& aggregate, const NumericEstimateOptions& options) {
  json document = {{"range", {question.range().low, question.range().high}},
                   {"unit", question.unit()},
                   {"step", question.answer_step() ? json(question.answer_step()->step()) : json(nullptr)},
                   {"mechanism", question.MechanismToJson()},
                   {"privacy", question.PrivacyToJson()},
                   {"n", aggregate.n()},
                   {"interval_for", IntervalForJson(options.target)},
                   {"estimator", options.estimator},
                   {"curvature_penalty", nullptr},
                   {"curvature_penalty_rule", nullptr},
                   {"fit", nullptr},
                   {"resolution", nullptr},
                   {"warning", nullptr}};
  return document;
}

json SampleSizeWarning(const NumericQuestionKind& question, std::int64_t n, const BootstrapInterval& mean) {
  const double half_width = (mean.high - mean.low) / 2.0;
  if (half_width <= kUsefulMeanHalfWidth * question.range().width()) return nullptr;
  return "n = " + std::to_string(n) + " is too small for useful estimates: the 95% interval of the mean is about ±" +
         FormatSignificant(half_width, 2) + (question.unit().empty() ? "" : " " + question.unit()) +
         " wide (more than 5% of the answer range)";
}

void PrependWarning(json& document, const std::string& warning) {
  document["warning"] = document["warning"].is_null() ? warning : warning + "; " + document["warning"].get<std::string>();
}

// The density, CDF, histogram and statistics of the fitted distribution with
// their bootstrap bands, and the sample-size warning, into `document`.
// `transition` serves the reports' moments (at most 100 cells: their cost is
// cubic); `fine_transition` is the fit's own grid, for the detection limits.
Status AddEstimates(const NumericQuestionKind& question, const NumericAggregate& aggregate,
                    const NumericEstimateOptions& options, const GridDistribution& fitted,
                    const BootstrapSample& sample, const Resolution& resolution, const EndReach& reach,
                    const TransitionMatrix& transition, const TransitionMatrix& fine_transition,
                    const EmptyTails& empty_tails, json& document) {
  const std::int64_t n = aggregate.n();
  const NumericHistogram& histogram = aggregate.histogram();
  const double bin_width = options.bin_width.value_or(DefaultBinWidth(question));
  auto curve = DensityOnPoints(fitted, options.points);
  const BandMethod method = *IntervalMethodOf(options.interval_method);
  auto bands = DensityAndCdfBands(sample, options.points, kDefaultBandLevel, method);
  auto bins = HistogramWithBinWidth(fitted, bin_width);
  auto bin_band = HistogramBand(sample, bin_width, kDefaultBandLevel, method);
  auto intervals = StatisticIntervals(sample, kDefaultBandLevel, method);
  for (const std::string* error : {curve ? nullptr : &curve.error(), bands ? nullptr : &bands.error(),
                                   bins ? nullptr : &bins.error(), bin_band ? nullptr : &bin_band.error(),
                                   intervals ? nullptr : &intervals.error()}) {
    if (error) return MakeError(*error);
  }
  const auto moments = EstimateFromReportMoments(question.mechanism(), histogram, &transition);
  // Quantiles also take every value the CDF's bootstrap band allows (blur_bands.h):
  // a quantile in a gap between modes moves far on a small error in the CDF
  // (bimodal answers' medians covered 75-83% without it at n = 20,000).
  SummaryIntervals statistic_intervals = *intervals;
  const std::pair<BootstrapInterval SummaryIntervals::*, double> quantiles[] = {
      {&SummaryIntervals::median, 0.5}, {&SummaryIntervals::lower_quartile, 0.25},
      {&SummaryIntervals::upper_quartile, 0.75}};
  for (const auto& [quantile, q] : quantiles) {
    const BootstrapInterval allowed = QuantileRangeFromCdfBand(curve->points, bands->cdf, q, question.range());
    BootstrapInterval& interval = statistic_intervals.*quantile;
    interval = {std::min(interval.low, allowed.low), std::max(interval.high, allowed.high)};
  }
  document["statistics"] = NumericStatisticsToJson(sample, statistic_intervals, moments, resolution,
                                                   question.answer_step(), options.target);
  document["resolution"] = ResolutionToJson(resolution);
  document["bootstrap"] = {{"method", "parametric"}, {"interval", options.interval_method},
                           {"world", sample.drawn_from_pilot() ? "pilot" : "fitted"},
                           {"replicates", static_cast<int>(sample.replicates.size())},
                           {"failures", sample.failures}, {"level", 0.95}};
  const json& mean = document["statistics"]["mean"];
  document["warning"] = SampleSizeWarning(question, n, {mean["low"].get<double>(), mean["high"].get<double>()});
  if (moments && !moments->spread_identifiable) {
    // The fitted curve's shape is the smoothing's, not the reports'.
    document["density"] = nullptr;
    document["cdf"] = nullptr;
    document["histogram"] = nullptr;
    PrependWarning(document, "only the mean can be estimated from these reports: each " + question.mechanism().name() +
                                 " report is one of two values whose probabilities depend only on the mean answer");
    return OkStatus();
  }
  // The CDF's and histogram's bands allow for the blur as the quantiles do
  // (blur_bands.h), and on a declared step for one step more: the answers'
  // CDF is flat between grid values and jumps at them, where a continuous
  // estimate passes half-way (integers at n = 30,000: CDF bands covered
  // 65-99% of points without it).
  const double blur = QuantileBlur(Summarize(fitted), resolution) +
                      (question.answer_step() ? question.answer_step()->step() : 0.0);
  BootstrapBand cdf_band =
      WidenCdfBandForBlur(curve->points, bands->cdf, BlurNearEnds(curve->points, blur, reach, question.range()));
  // And for mass the reports cannot see where the fit has none (detection_limits.h).
  if (fitted.probabilities.size() == static_cast<std::size_t>(fine_transition.input_cells())) {
    const double reported_values = static_cast<double>(n) * question.mechanism().values_per_report();
    cdf_band = WidenCdfBandForUndetectableMass(
        curve->cdf, cdf_band, UndetectableMass(fine_transition, fitted.probabilities, reported_values, curve->points));
  }
  // And to 1 (0) beyond where the reports allow no answer at all (empty_tails.h).
  cdf_band = WidenCdfBandForEmptyTails(curve->points, cdf_band, curve->cdf, empty_tails);
  BootstrapBand histogram_band = *bin_band;
  WidenHistogramBandForBlur(bins->edges, curve->points, cdf_band, blur, histogram_band);
  const auto [half_window, density_band] =
      ChooseDensityWindow(curve->points, cdf_band, question.range(), std::max(blur, 0.5 * bin_width), curve->density);
  document["density"] = Curve(curve->points, curve->density, density_band);
  document["density"]["window"] = half_window;
  const std::string bumps =
      UnsupportedBumpsNote(UnsupportedBumps(curve->points, curve->density, density_band), question.unit());
  document["density"]["note"] = bumps.empty() ? json(nullptr) : json(bumps);
  document["cdf"] = Curve(curve->points, curve->cdf, cdf_band);
  document["histogram"] = {{"bin_width", bin_width}, {"edges", bins->edges}, {"value", bins->probabilities},
                           {"low", histogram_band.low}, {"high", histogram_band.high}};
  return OkStatus();
}

// PML's lambda for a request (estimator pml), and where it came from: the
// analyst's; for one-value mechanisms chosen from the reports on `grid` (at
// most 100 cells; curvature_penalty_choice.h), whose fit there comes along so
// that it is not computed again; otherwise the sqrt(N) rule.
struct PenaltyDecision {
  double penalty = 0.0;
  std::string rule;                 // "analyst", "marginal_likelihood" (lowered below the rule) or "sqrt_n"
  std::optional<EmsResult> on_grid;  // PML at `penalty` on `grid`, when the search ran
};

Result<PenaltyDecision> DecidePenalty(const NumericQuestionKind& question, const NumericEstimateOptions& options,
                                      const std::vector<double>& counts, const TransitionMatrix& grid,
                                      WorkBudget* budget) {
  EmsOptions pml;
  pml.curvature_penalty = options.curvature_penalty;
  pml.max_iterations = options.max_iterations;
  pml.budget = budget;
  // The analyst's lambda if given, else the sqrt(N) rule's.
  const double given = CurvaturePenalty(pml, std::accumulate(counts.begin(), counts.end(), 0.0));
  if (options.curvature_penalty) return PenaltyDecision{given, "analyst", std::nullopt};
  if (question.mechanism().values_per_report() != 1) return PenaltyDecision{given, "sqrt_n", std::nullopt};
  DENIABLE_ASSIGN_OR_RETURN(auto choice, ChooseCurvaturePenalty(counts, grid, pml));
  return PenaltyDecision{choice.penalty,
                         choice.penalty < choice.rule_penalty ? "marginal_likelihood" : "sqrt_n",
                         std::move(choice).fit};
}

}  // namespace

Status ValidateNumericEstimateOptions(const NumericQuestionKind& question, const NumericEstimateOptions& options) {
  if (options.estimator != "pml" && options.estimator != "ems" && options.estimator != "em" &&
      options.estimator != "kde_sqp") {
    return MakeError("estimator must be one of pml, ems, em, kde_sqp, but is \"" + options.estimator + "\"");
  }
  if (options.estimator == "kde_sqp" && !question.mechanism().transition_density()) {
    return MakeError("estimator kde_sqp (the RVNS paper's) applies only to rvns questions");
  }
#ifndef DENIABLE_WITH_NLOPT
  // The WebAssembly build has no NLopt (kde_sqp's SQP solver): the server estimates.
  if (options.estimator == "kde_sqp") return MakeError("estimator kde_sqp is available on the server only");
#endif
  if (options.estimator == "kde_sqp" && options.estimation_cells > kMaxKdeSqpEstimationCells) {
    return MakeError("estimator kde_sqp allows at most " + std::to_string(kMaxKdeSqpEstimationCells) +
                     " estimation_cells (its solver's work grows like the cube of the cells), but is " +
                     std::to_string(options.estimation_cells));
  }
  if (options.curvature_penalty) {
    if (options.estimator != "pml") return MakeError("curvature_penalty applies only to estimator pml");
    const double penalty = *options.curvature_penalty;
    if (!std::isfinite(penalty) || penalty < 0.0 || penalty > kMaxCurvaturePenalty) {
      return MakeError("curvature_penalty must be a number in [0, " + FormatNumber(kMaxCurvaturePenalty) +
                       "], but is " + FormatNumber(penalty));
    }
  }
  DENIABLE_TRY(ValidateIntInRange(options.points, 2, kMaxDensityPoints, "points"));
  DENIABLE_TRY(ValidateIntInRange(options.max_iterations, 1, 100000, "max_iterations"));
  if (!IntervalMethodOf(options.interval_method)) {
    return MakeError("interval_method must be one of bias_aware, basic, percentile, but is \"" +
                     options.interval_method + "\"");
  }
  DENIABLE_TRY(ValidateIntInRange(options.estimation_cells, 2, 1000, "estimation_cells"));
  DENIABLE_TRY(ValidateIntInRange(options.replicates, 2, 1000, "replicates"));
  DENIABLE_TRY(ValidateIntInRange(options.mu, 1, 16, "mu"));
  if (options.work_budget < 1) return MakeError("work_budget must be at least 1");
  if (options.estimation_cells * options.replicates > kMaxBootstrapCost) {
    return MakeError("estimation_cells x replicates must be at most " + std::to_string(kMaxBootstrapCost) +
                     " (the bootstrap's cost), but is " + std::to_string(options.estimation_cells) + " x " +
                     std::to_string(options.replicates));
  }
  const double bin_width = options.bin_width.value_or(DefaultBinWidth(question));
  if (!std::isfinite(bin_width) || bin_width <= 0.0 || question.range().width() / bin_width > kMaxHistogramBins) {
    return MakeError("bin_width must be positive and give at most " + std::to_string(kMaxHistogramBins) +
                     " bins over the range, but is " + FormatNumber(bin_width));
  }
  return OkStatus();
}

namespace {

// The warning for bootstrap replicates the work budget cut short (nullopt: none).
std::optional<std::string> ReplicateBudgetWarning(const ReplicateBudgets& budgets) {
  if (budgets.cut_short == 0) return std::nullopt;
  return std::to_string(budgets.cut_short) + " of " + std::to_string(budgets.replicates) +
         " bootstrap replicates ran out of the work budget before converging, so the bands may be too narrow or "
         "misplaced; ask for fewer estimation_cells or replicates (the default options stay within it)";
}

// A single value in `cell`, reported as n respondents would on average, estimated again: where it comes back.
Result<GridDistribution> SpikeReestimated(const GridDistribution& fitted, const TransitionMatrix& transition, int cell,
                                          std::int64_t reports, int values_per_report, const CountsEstimator& estimate,
                                          WorkBudget* budget) {
  std::vector<double> spike(fitted.probabilities.size(), 0.0);
  spike[static_cast<std::size_t>(cell)] = 1.0;
  std::vector<double> expected = transition.Apply(spike);
  for (double& count : expected) count *= static_cast<double>(reports) * values_per_report;
  DENIABLE_ASSIGN_OR_RETURN(auto spread, estimate(expected, budget));
  return MakeGridDistribution(fitted.range, std::move(spread).probabilities);
}

// The estimator's resolution at this n (numeric_statistics.h): all answers at
// the fitted median, their reports as n respondents would send them on
// average (expected counts: the bias, not the noise), estimated again. How far
// that comes back spread is how far the estimate can blur the answers.
Result<Resolution> ResolutionAtMedian(const GridDistribution& fitted, const TransitionMatrix& transition,
                                      std::int64_t reports, int values_per_report, const CountsEstimator& estimate,
                                      WorkBudget* budget) {
  const int cells = static_cast<int>(fitted.probabilities.size());
  const double median = Quantile(fitted, 0.5);
  const int cell = std::clamp(static_cast<int>(std::floor((median - fitted.range.low) / fitted.range.width() * cells)),
                              0, cells - 1);
  DENIABLE_ASSIGN_OR_RETURN(auto distribution,
                            SpikeReestimated(fitted, transition, cell, reports, values_per_report, estimate, budget));
  return Resolution{fitted.range.low + (cell + 0.5) * fitted.range.width() / cells, Quantile(distribution, 0.25),
                    Quantile(distribution, 0.75)};
}

// How far answers at each end of the range come back from it: the upper
// quartile of a value at the low end, re-estimated, less the low end; the
// same from the high end. Answers piled at an end (60% at exactly 0, the
// rest a long tail) are an atom there, which a continuous fit spreads
// inwards: its CDF at 0.25 was 0.08 against the answers' 0.60, and the blur
// at the median (small: the tail makes the fit wide) did not reach it.
Result<EndReach> ReachFromEnds(const GridDistribution& fitted, const TransitionMatrix& transition,
                               std::int64_t reports, int values_per_report, const CountsEstimator& estimate,
                               WorkBudget* budget) {
  const int last = static_cast<int>(fitted.probabilities.size()) - 1;
  DENIABLE_ASSIGN_OR_RETURN(auto low,
                            SpikeReestimated(fitted, transition, 0, reports, values_per_report, estimate, budget));
  DENIABLE_ASSIGN_OR_RETURN(auto high,
                            SpikeReestimated(fitted, transition, last, reports, values_per_report, estimate, budget));
  return EndReach{Quantile(low, 0.75) - fitted.range.low, fitted.range.high - Quantile(high, 0.25)};
}

}  // namespace

Result<json> NumericResultToJson(const NumericQuestionKind& question, const NumericAggregate& aggregate,
                                         const NumericEstimateOptions& options,
                                         const std::function<bool()>& cancelled) {
  DENIABLE_TRY(ValidateNumericEstimateOptions(question, options));
  json document = BaseDocument(question, aggregate, options);
  const NumericHistogram& histogram = aggregate.histogram();
  document["unbiased_mean"] = UnbiasedMean(question.mechanism(), histogram);
  document["mechanism_estimates"] = MechanismEstimates(question.mechanism(), aggregate, options);
  if (aggregate.n() == 0) {
    document["warning"] = "no reports yet";
    return document;
  }
  WorkBudget question_budget(options.work_budget, cancelled);
  // The point estimate, with PML's penalty search and coarse solution, may use half.
  WorkBudget point_budget(question_budget, options.work_budget / 2);
  DENIABLE_ASSIGN_OR_RETURN(auto transition,
                            TransitionMatrix::ForMechanism(question.mechanism(), options.estimation_cells, histogram.cells()));
  // PML on a grid finer than the coarse one runs coarse-to-fine.
  std::optional<TransitionMatrix> coarse;
  if (options.estimator == "pml" && options.estimation_cells > kDefaultCoarseCells) {
    DENIABLE_ASSIGN_OR_RETURN(auto built,
                              TransitionMatrix::ForMechanism(question.mechanism(), kDefaultCoarseCells, histogram.cells()));
    coarse = std::move(built);
  }
  const TransitionMatrix* coarse_matrix = coarse ? &*coarse : nullptr;
  const auto counts = histogram.counts_as_doubles();
  NumericEstimateOptions chosen = options;
  std::optional<EmsResult> pml_on_grid;  // PML's fit on the coarse grid, or on the estimation grid without one
  if (options.estimator == "pml") {
    DENIABLE_ASSIGN_OR_RETURN(auto decision,
                              DecidePenalty(question, options, counts, coarse_matrix ? *coarse_matrix : transition, &point_budget));
    chosen.curvature_penalty = decision.penalty;
    document["curvature_penalty"] = decision.penalty;
    document["curvature_penalty_rule"] = decision.rule;
    pml_on_grid = std::move(decision).on_grid;
  }
  // The coarse solution, computed once: it starts the point estimate's coarse
  // stage (which then stops at once) and, nudged, every replicate's.
  std::vector<double> coarse_solution;
  if (coarse_matrix && pml_on_grid) coarse_solution = pml_on_grid->probabilities;
  if (coarse_matrix && !pml_on_grid) {
    EmsOptions pml;
    pml.curvature_penalty = chosen.curvature_penalty;
    pml.max_iterations = options.max_iterations;
    pml.budget = &point_budget;
    DENIABLE_ASSIGN_OR_RETURN(auto coarse_fit, EstimateEms(counts, *coarse_matrix, pml));
    coarse_solution = std::move(coarse_fit).probabilities;
  }
  // Without a coarse grid the penalty search already fitted PML on the estimation grid.
  auto cells = !coarse_matrix && pml_on_grid
                   ? Result<CellEstimate>(CellEstimate{pml_on_grid->probabilities,
                                                       FitOfEm(*pml_on_grid, options.max_iterations)})
                   : MakeEstimator(question, histogram, transition, coarse_matrix, chosen,
                                   {{}, coarse_solution})(counts, &point_budget);
  if (question_budget.Cancelled()) return MakeError(kEstimationCancelled, ErrorCode::kCancelled);
  if (!cells) return MakeError(cells.error());
  const EstimateFit fit = cells->fit;
  DENIABLE_ASSIGN_OR_RETURN(auto fitted,
                            MakeGridDistribution(question.range(), std::move(cells).value().probabilities));
  WarmStarts starts{NudgedTowardsUniform(fitted.probabilities), {}};
  if (coarse_matrix) starts.coarse = NudgedTowardsUniform(std::move(coarse_solution));

  BootstrapOptions bootstrap;
  if (const auto pilot_options = PilotOptions(chosen); pilot_options) {
    auto pilot = MakeEstimator(question, histogram, transition, coarse_matrix, *pilot_options, starts)(counts, &point_budget);
    if (question_budget.Cancelled()) return MakeError(kEstimationCancelled, ErrorCode::kCancelled);
    if (!pilot) return MakeError(pilot.error());
    DENIABLE_ASSIGN_OR_RETURN(auto world,
                              MakeGridDistribution(question.range(), std::move(pilot).value().probabilities));
    bootstrap.world = std::move(world);
  }
  const auto spike_estimator = MakeEstimator(question, histogram, transition, coarse_matrix, chosen);
  auto resolution = ResolutionAtMedian(fitted, transition, aggregate.n(), question.mechanism().values_per_report(),
                                       spike_estimator, &point_budget);
  if (question_budget.Cancelled()) return MakeError(kEstimationCancelled, ErrorCode::kCancelled);
  if (!resolution) return MakeError(resolution.error());
  auto reach = ReachFromEnds(fitted, transition, aggregate.n(), question.mechanism().values_per_report(),
                             spike_estimator, &point_budget);
  if (question_budget.Cancelled()) return MakeError(kEstimationCancelled, ErrorCode::kCancelled);
  if (!reach) return MakeError(reach.error());
  ReplicateBudgets replicate_budgets{&question_budget, options.replicates};
  const auto reestimate = MakeEstimator(question, histogram, transition, coarse_matrix, chosen, std::move(starts));
  bootstrap.replicates = options.replicates;
  bootstrap.cancelled = [&question_budget] { return question_budget.Cancelled(); };
  auto sample = ParametricBootstrap(fitted, transition, aggregate.n(), question.mechanism().values_per_report(),
                                    ProbabilitiesOnly(reestimate, &replicate_budgets), bootstrap);
  if (question_budget.Cancelled()) return MakeError(kEstimationCancelled, ErrorCode::kCancelled);
  if (!sample) return MakeError(sample.error());
  ReplicateBudgets tail_budgets{&question_budget, 8 * kEmptyTailReplicates};
  auto empty_tails = TestEmptyTails(fitted, transition, aggregate.n(), question.mechanism().values_per_report(),
                                    ProbabilitiesOnly(reestimate, &tail_budgets), bootstrap);
  if (question_budget.Cancelled()) return MakeError(kEstimationCancelled, ErrorCode::kCancelled);
  if (!empty_tails) return MakeError(empty_tails.error());
  // The moments' linear estimates need no fine grid (their cost is cubic in it).
  const TransitionMatrix& moment_grid = coarse_matrix ? *coarse_matrix : transition;
  DENIABLE_TRY(
      AddEstimates(question, aggregate, options, fitted, *sample, *resolution, *reach, moment_grid, transition,
                   *empty_tails, document));
  document["bootstrap"]["replicates_cut_short"] = replicate_budgets.cut_short;
  document["fit"] = FitToJson(fit);
  // Runs cut off before converging matter more than the sample size: their warnings come first.
  if (const auto warning = ReplicateBudgetWarning(replicate_budgets)) PrependWarning(document, *warning);
  if (const auto warning = FitWarning(options.estimator, fit)) PrependWarning(document, *warning);
  return document;
}

Status ValidateNumericEstimateOptions(const Question& question, const NumericEstimateOptions& options) {
  return ValidateNumericEstimateOptions(NumericKindOf(question), options);
}

json SurveyResultsToJson(const Survey& survey, const SurveyAggregate& aggregate, const NumericEstimateOptions& numeric,
                         const std::function<bool()>& cancelled) {
  return SurveyResultsToJson(survey, aggregate, NumericEstimateOptionsToJson(numeric), cancelled);
}

}  // namespace deniable
