#include "core/ems_estimator.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "core/validation.h"

namespace deniable {
namespace {

// Keeps ln and division finite if f underflows to 0 on every input reaching a cell.
constexpr double kPredictedFloor = 1e-300;

Status ValidateOptions(const EmsOptions& options) {
  if (!std::isfinite(options.log_likelihood_tolerance) || options.log_likelihood_tolerance <= 0.0) {
    return MakeError("EMS log_likelihood_tolerance must be a positive number, but is " +
                     FormatNumber(options.log_likelihood_tolerance));
  }
  if (!std::isfinite(options.per_value_tolerance) || options.per_value_tolerance < 0.0) {
    return MakeError("EMS per_value_tolerance must be a non-negative number, but is " +
                     FormatNumber(options.per_value_tolerance));
  }
  return ValidateIntInRange(options.max_iterations, 1, 100000000, "EMS max_iterations");
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

// A point of the iteration: f, T f and the relative log-likelihood there.
struct EmPoint {
  std::vector<double> f;
  std::vector<double> predicted;
  double relative_log_likelihood;
};

// The EM (or EMS) update as a map f -> F(f), with the data it needs.
class EmsMap {
 public:
  EmsMap(const std::vector<double>& counts, double total, const TransitionMatrix& transition, bool smoothing)
      : counts_(counts), total_(total), transition_(transition), smoothing_(smoothing) {}

  EmPoint At(std::vector<double> f) const {
    auto predicted = transition_.Apply(f);
    const double value = RelativeLogLikelihood(counts_, total_, predicted);
    return EmPoint{std::move(f), std::move(predicted), value};
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
    if (smoothing_) f = BinomialSmooth(f);
    NormaliseTo(f, 1.0);
    return At(std::move(f));
  }

 private:
  const std::vector<double>& counts_;
  double total_;
  const TransitionMatrix& transition_;
  bool smoothing_;
};

EmsResult Finish(EmPoint point, int iterations, bool converged) {
  EmsResult result;
  result.probabilities = std::move(point.f);
  result.log_likelihood = point.relative_log_likelihood;
  result.iterations = iterations;
  result.converged = converged;
  return result;
}

EmsResult Run(const EmsMap& map, EmPoint current, double tolerance, int max_iterations) {
  for (int iteration = 1; iteration <= max_iterations; ++iteration) {
    EmPoint next = map.Step(current);
    const double change = next.relative_log_likelihood - current.relative_log_likelihood;
    current = std::move(next);
    if (std::abs(change) < tolerance) return Finish(std::move(current), iteration, true);
  }
  return Finish(std::move(current), max_iterations, false);
}

}  // namespace

std::vector<double> BinomialSmooth(const std::vector<double>& probabilities) {
  std::vector<double> smoothed(probabilities.size());
  for (std::size_t i = 0; i < probabilities.size(); ++i) smoothed[i] = SmoothedAt(probabilities, static_cast<int>(i));
  NormaliseTo(smoothed, std::accumulate(probabilities.begin(), probabilities.end(), 0.0));
  return smoothed;
}

Result<EmsResult> EstimateEms(const std::vector<double>& output_counts, const TransitionMatrix& transition,
                              const EmsOptions& options) {
  DENIABLE_TRY(ValidateOptions(options));
  DENIABLE_TRY(ValidateCounts(output_counts, transition));
  const int m = transition.input_cells();
  std::vector<double> uniform(static_cast<std::size_t>(m), 1.0 / m);
  const std::vector<double> reachable = transition.Apply(uniform);

  // Counts in cells no input can reach are impossible under the model: they
  // are left out rather than making the likelihood -infinity.
  std::vector<double> counts = output_counts;
  for (std::size_t j = 0; j < counts.size(); ++j) {
    if (!(reachable[j] > 0.0)) counts[j] = 0.0;
  }
  const double total = std::accumulate(counts.begin(), counts.end(), 0.0);
  if (!(total > 0.0)) return MakeError("EMS needs at least one reported value in a reachable output cell");

  const EmsMap map(counts, total, transition, options.smoothing);
  const double tolerance = std::max(options.log_likelihood_tolerance, options.per_value_tolerance * total);
  EmPoint start = map.At(std::move(uniform));
  EmsResult result = Run(map, std::move(start), tolerance, options.max_iterations);
  result.log_likelihood += SaturatedLogLikelihood(counts, total);
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
