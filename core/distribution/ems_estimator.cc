#include "core/distribution/ems_estimator.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "core/distribution/curvature_smoother.h"
#include "core/common/validation.h"

namespace deniable {
namespace {

// Keeps ln and division finite if f underflows to 0 on every input reaching a cell.
constexpr double kPredictedFloor = 1e-300;

Status ValidateOptions(const EmsOptions& options, int cells) {
  if (options.curvature_penalty &&
      (!std::isfinite(*options.curvature_penalty) || *options.curvature_penalty < 0.0)) {
    return MakeError("EMS curvature_penalty must be a non-negative number, but is " +
                     FormatNumber(*options.curvature_penalty));
  }
  if (!std::isfinite(options.per_value_tolerance) || options.per_value_tolerance <= 0.0) {
    return MakeError("EMS per_value_tolerance must be a positive number, but is " +
                     FormatNumber(options.per_value_tolerance));
  }
  DENIABLE_TRY(ValidateIntInRange(options.max_iterations, 1, 100000000, "EMS max_iterations"));
  if (options.start.empty()) return OkStatus();
  if (static_cast<int>(options.start.size()) != cells) {
    return MakeError("EMS start needs one probability per input cell (" + std::to_string(cells) + "), but has " +
                     std::to_string(options.start.size()));
  }
  double sum = 0.0;
  for (double value : options.start) {
    if (!std::isfinite(value) || value < 0.0) return MakeError("EMS start must be finite and non-negative");
    sum += value;
  }
  if (!(sum > 0.0)) return MakeError("EMS start must not be all 0");
  return OkStatus();
}

Status ValidateCounts(const std::vector<double>& counts, const TransitionMatrix& transition) {
  if (static_cast<int>(counts.size()) != transition.output_cells()) {
    return MakeError("EMS needs one count per output cell (" + std::to_string(transition.output_cells()) +
                     "), but got " + std::to_string(counts.size()));
  }
  for (std::size_t j = 0; j < counts.size(); ++j) {
    if (!std::isfinite(counts[j]) || counts[j] < 0.0) {
      return MakeError("EMS count " + std::to_string(j) + " must be finite and non-negative, but is " +
                       FormatNumber(counts[j]));
    }
  }
  return OkStatus();
}

// sum_j c_j ln((T f)_j / (c_j / N)): the log-likelihood minus that of the
// saturated model, so it is near 0 at a good fit and keeps full precision there.
double RelativeLogLikelihood(const std::vector<double>& counts, double total, const std::vector<double>& predicted) {
  double value = 0.0;
  for (std::size_t j = 0; j < counts.size(); ++j) {
    if (counts[j] > 0.0) value += counts[j] * std::log(std::max(predicted[j], kPredictedFloor) * total / counts[j]);
  }
  return value;
}

double SaturatedLogLikelihood(const std::vector<double>& counts, double total) {
  double value = 0.0;
  for (double count : counts) {
    if (count > 0.0) value += count * std::log(count / total);
  }
  return value;
}

void NormaliseTo(std::vector<double>& values, double total) {
  const double sum = std::accumulate(values.begin(), values.end(), 0.0);
  for (double& value : values) value *= total / sum;
}

// The binomial kernel at cell i: (f_i-1 + 2 f_i + f_i+1)/4 inside, the
// truncated kernels (2 f_0 + f_1)/3 and (f_m-2 + 2 f_m-1)/3 at the ends.
double SmoothedAt(const std::vector<double>& f, int i) {
  const int m = static_cast<int>(f.size());
  const auto at = [&f](int k) { return f[static_cast<std::size_t>(k)]; };
  if (m < 2) return at(i);
  if (i == 0) return (2.0 * at(0) + at(1)) / 3.0;
  if (i == m - 1) return (at(m - 2) + 2.0 * at(m - 1)) / 3.0;
  return 0.25 * at(i - 1) + 0.5 * at(i) + 0.25 * at(i + 1);
}

// A point of the iteration: f, T f and the objective there.
struct EmPoint {
  std::vector<double> f;
  std::vector<double> predicted;
  double relative_log_likelihood;
  double objective;  // relative_log_likelihood minus the curvature penalty (kCurvature)
};

// The EM update with its smoothing step as a map f -> F(f), with the data it needs.
class EmsMap {
 public:
  EmsMap(const std::vector<double>& counts, double total, const TransitionMatrix& transition, const EmsOptions& options)
      : counts_(counts),
        total_(total),
        transition_(transition),
        smoothing_(options.smoothing),
        smoother_(static_cast<std::size_t>(transition.input_cells())) {
    const double m = static_cast<double>(transition.input_cells());
    // lambda m^5: see curvature_smoother.h. Zero unless kCurvature.
    if (smoothing_ == EmSmoothing::kCurvature) penalty_weight_ = CurvaturePenalty(options, total) * std::pow(m, 5.0);
  }

  EmPoint At(std::vector<double> f) const {
    auto predicted = transition_.Apply(f);
    const double value = RelativeLogLikelihood(counts_, total_, predicted);
    const double penalty = penalty_weight_ > 0.0 ? penalty_weight_ * SquaredCurvature(f) : 0.0;
    return EmPoint{std::move(f), std::move(predicted), value, value - penalty};
  }

  // E-step and M-step in one, f_i <- f_i sum_j T[j][i] c_j / (T f)_j / N,
  // then the smoothing and the renormalisation.
  EmPoint Step(const EmPoint& point) const {
    std::vector<double> ratio(counts_.size(), 0.0);
    for (std::size_t j = 0; j < counts_.size(); ++j) {
      if (counts_[j] > 0.0) ratio[j] = counts_[j] / std::max(point.predicted[j], kPredictedFloor);
    }
    std::vector<double> back;
    transition_.ApplyTransposed(ratio, back);
    std::vector<double> f = point.f;
    for (std::size_t i = 0; i < f.size(); ++i) f[i] *= back[i] / total_;
    if (smoothing_ == EmSmoothing::kBinomial) f = BinomialSmooth(f);
    if (smoothing_ == EmSmoothing::kCurvature) f = smoother_.Smooth(f, 2.0 * penalty_weight_ / total_);
    NormaliseTo(f, 1.0);
    return At(std::move(f));
  }

  bool has_objective() const { return smoothing_ != EmSmoothing::kBinomial; }
  // Work units (work_budget.h) of one Step: T f and T^T r.
  std::int64_t step_cost() const { return 2 * transition_.band_entries(); }

 private:
  const std::vector<double>& counts_;
  double total_;
  const TransitionMatrix& transition_;
  EmSmoothing smoothing_;
  double penalty_weight_ = 0.0;
  // Kept across steps (its band's analysis); Step is logically const.
  mutable CurvatureSmoother smoother_;
};

EmsResult Finish(EmPoint point, int iterations, EmStop stop) {
  EmsResult result;
  result.probabilities = std::move(point.f);
  result.log_likelihood = point.relative_log_likelihood;
  result.objective = point.objective;
  result.iterations = iterations;
  result.converged = stop == EmStop::kConverged;
  result.stop = stop;
  return result;
}

// Why the budget refused more work.
EmStop Refused(WorkBudget& budget) { return budget.Cancelled() ? EmStop::kCancelled : EmStop::kWorkBudget; }

// Plain fixed-point iteration (EMS).
EmsResult RunPlain(const EmsMap& map, EmPoint current, double tolerance, int max_iterations, WorkBudget* budget) {
  for (int iteration = 1; iteration <= max_iterations; ++iteration) {
    if (!SpendWork(budget, map.step_cost())) return Finish(std::move(current), iteration - 1, Refused(*budget));
    EmPoint next = map.Step(current);
    const double change = next.objective - current.objective;
    current = std::move(next);
    if (std::abs(change) < tolerance) return Finish(std::move(current), iteration, EmStop::kConverged);
  }
  return Finish(std::move(current), max_iterations, EmStop::kIterationCap);
}

double SquaredNorm(const std::vector<double>& v) { return std::inner_product(v.begin(), v.end(), v.begin(), 0.0); }

// The SQUAREM extrapolation f - 2 a r + a^2 v, clipped at 0 and renormalised;
// a = -|r|/|v|, at most -1 (a = -1 gives F(F(f)) exactly).
std::vector<double> Extrapolate(const std::vector<double>& f, const std::vector<double>& f1,
                                const std::vector<double>& f2) {
  std::vector<double> r(f.size()), v(f.size());
  for (std::size_t i = 0; i < f.size(); ++i) {
    r[i] = f1[i] - f[i];
    v[i] = f2[i] - 2.0 * f1[i] + f[i];
  }
  const double v_norm = SquaredNorm(v);
  const double step = v_norm > 0.0 ? std::min(-1.0, -std::sqrt(SquaredNorm(r) / v_norm)) : -1.0;
  std::vector<double> extrapolated(f.size());
  for (std::size_t i = 0; i < f.size(); ++i) {
    extrapolated[i] = std::max(0.0, f[i] - 2.0 * step * r[i] + step * step * v[i]);
  }
  NormaliseTo(extrapolated, 1.0);
  return extrapolated;
}

// SQUAREM-accelerated iteration (see the header), for maps with an objective.
EmsResult RunAccelerated(const EmsMap& map, EmPoint current, double tolerance, int max_iterations,
                         WorkBudget* budget) {
  int steps = 0;
  // A cycle takes three map steps and one T f (half a step); the last one or
  // two steps before the cap are plain.
  const std::int64_t cycle_cost = 3 * map.step_cost() + map.step_cost() / 2;
  while (steps + 3 <= max_iterations) {
    if (!SpendWork(budget, cycle_cost)) return Finish(std::move(current), steps, Refused(*budget));
    EmPoint first = map.Step(current);
    EmPoint second = map.Step(first);
    steps += 2;
    EmPoint next = std::move(second);
    EmPoint candidate = map.Step(map.At(Extrapolate(current.f, first.f, next.f)));
    ++steps;
    if (candidate.objective >= current.objective) next = std::move(candidate);
    const double change = next.objective - current.objective;
    current = std::move(next);
    if (std::abs(change) < tolerance) return Finish(std::move(current), steps, EmStop::kConverged);
  }
  EmsResult rest = RunPlain(map, std::move(current), tolerance, max_iterations - steps, budget);
  rest.iterations += steps;
  return rest;
}

}  // namespace

double CurvaturePenalty(const EmsOptions& options, double values) {
  return options.curvature_penalty.value_or(kCurvaturePenaltyPerRootValue * std::sqrt(values));
}

std::vector<double> NudgedTowardsUniform(std::vector<double> probabilities) {
  for (double& value : probabilities) value = 0.99 * value + 0.01 / static_cast<double>(probabilities.size());
  return probabilities;
}

std::vector<double> BinomialSmooth(const std::vector<double>& probabilities) {
  std::vector<double> smoothed(probabilities.size());
  for (std::size_t i = 0; i < probabilities.size(); ++i) smoothed[i] = SmoothedAt(probabilities, static_cast<int>(i));
  NormaliseTo(smoothed, std::accumulate(probabilities.begin(), probabilities.end(), 0.0));
  return smoothed;
}

Result<EmsResult> EstimateEms(const std::vector<double>& output_counts, const TransitionMatrix& transition,
                              const EmsOptions& options) {
  const int m = transition.input_cells();
  DENIABLE_TRY(ValidateOptions(options, m));
  DENIABLE_TRY(ValidateCounts(output_counts, transition));
  const std::vector<double> uniform(static_cast<std::size_t>(m), 1.0 / m);
  const std::vector<double> reachable = transition.Apply(uniform);

  // Counts in cells no input can reach are impossible under the model: they
  // are left out rather than making the likelihood -infinity.
  std::vector<double> counts = output_counts;
  for (std::size_t j = 0; j < counts.size(); ++j) {
    if (!(reachable[j] > 0.0)) counts[j] = 0.0;
  }
  const double total = std::accumulate(counts.begin(), counts.end(), 0.0);
  if (!(total > 0.0)) return MakeError("EMS needs at least one reported value in a reachable output cell");

  const EmsMap map(counts, total, transition, options);
  const double tolerance = options.per_value_tolerance * total;
  std::vector<double> start = options.start.empty() ? uniform : options.start;
  NormaliseTo(start, 1.0);
  EmPoint first = map.At(std::move(start));
  EmsResult result =
      map.has_objective() && options.accelerate
          ? RunAccelerated(map, std::move(first), tolerance, options.max_iterations, options.budget)
          : RunPlain(map, std::move(first), tolerance, options.max_iterations, options.budget);
  const double saturated = SaturatedLogLikelihood(counts, total);
  result.log_likelihood += saturated;
  result.objective += saturated;
  return result;
}

Result<EmsResult> EstimateEms(const NumericHistogram& histogram, const TransitionMatrix& transition,
                              const EmsOptions& options) {
  const NumericRange range = transition.output_range();
  if (histogram.range().low != range.low || histogram.range().high != range.high ||
      histogram.cells() != transition.output_cells()) {
    return MakeError("the histogram (" + std::to_string(histogram.cells()) + " cells over [" +
                     FormatNumber(histogram.range().low) + ", " + FormatNumber(histogram.range().high) +
                     "]) does not match the transition matrix's outputs (" + std::to_string(transition.output_cells()) +
                     " cells over [" + FormatNumber(range.low) + ", " + FormatNumber(range.high) + "])");
  }
  return EstimateEms(histogram.counts_as_doubles(), transition, options);
}

}  // namespace deniable
