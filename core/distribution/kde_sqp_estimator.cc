#include "core/distribution/kde_sqp_estimator.h"

#include <nlopt.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <numeric>

#include "core/distribution/distribution_summary.h"
#include "core/common/validation.h"

namespace deniable {
namespace {

constexpr double kMassFloor = 1e-15;          // P12: both KL arguments are floored here
constexpr double kKernelReach = 10.0;         // kernels are cut at 10 bandwidths (e^-50)
constexpr double kMadToSigma = 1.0 / 0.6745;  // MAD of a normal = 0.6745 sigma
constexpr double kEqualityTolerance = 1e-13;  // on Σ u - 1
constexpr double kInvSqrtTwoPi = 0.3989422804014327;

// The centre of cell k of `cells` equal cells over `range`.
double CellCentre(NumericRange range, int cells, int k) { return range.low + range.width() * (k + 0.5) / cells; }

std::vector<double> CellCentres(NumericRange range, int cells) {
  std::vector<double> centres(static_cast<std::size_t>(cells));
  for (int k = 0; k < cells; ++k) centres[static_cast<std::size_t>(k)] = CellCentre(range, cells, k);
  return centres;
}

Status ValidateKdeCounts(const std::vector<double>& counts) {
  if (counts.empty()) return MakeError("the histogram has no cells");
  double total = 0.0;
  for (std::size_t j = 0; j < counts.size(); ++j) {
    if (!std::isfinite(counts[j]) || counts[j] < 0.0) {
      return MakeError("count " + std::to_string(j) + " must be finite and non-negative, but is " +
                       FormatNumber(counts[j]));
    }
    total += counts[j];
  }
  if (!(total > 0.0)) return MakeError("the KDE needs at least one reported value");
  return OkStatus();
}

Status ValidateTarget(const std::vector<double>& target) {
  double total = 0.0;
  for (double value : target) {
    if (!std::isfinite(value) || value < 0.0) {
      return MakeError("the KDE target must be finite and non-negative, but has " + FormatNumber(value));
    }
    total += value;
  }
  if (!(total > 0.0)) return MakeError("the KDE target must not be all zero");
  return OkStatus();
}

Status ValidateSettings(const SqpSettings& settings) {
  DENIABLE_TRY(ValidateIntInRange(settings.max_evaluations, 1, 10000000, "SQP max_evaluations"));
  if (!std::isfinite(settings.relative_tolerance) || settings.relative_tolerance <= 0.0) {
    return MakeError("SQP relative_tolerance must be a positive number, but is " +
                     FormatNumber(settings.relative_tolerance));
  }
  return OkStatus();
}

// The median absolute deviation of a piecewise-uniform distribution: the t at
// which F(median + t) - F(median - t) = 1/2, by bisection (F is continuous).
double MedianAbsoluteDeviation(const GridDistribution& distribution) {
  const double median = Quantile(distribution, 0.5);
  double low = 0.0;
  double high = std::max(distribution.range.high - median, median - distribution.range.low);
  for (int iteration = 0; iteration < 100 && high - low > 1e-12 * distribution.range.width(); ++iteration) {
    const double t = 0.5 * (low + high);
    const double inside = Cdf(distribution, median + t) - Cdf(distribution, median - t);
    (inside < 0.5 ? low : high) = t;
  }
  return 0.5 * (low + high);
}

// The data handed to NLopt's callbacks.
struct KlProblem {
  const TransitionMatrix* transition = nullptr;
  std::vector<double> target;   // G, floored and summing to 1
  double penalty_weight = 0.0;  // λ m^3
  std::vector<double> bracket;  // scratch: ln(ĝ/G) + 1 - G/ĝ
  std::vector<double> back;     // scratch: P^T bracket
  int evaluations = 0;
  WorkBudget* budget = nullptr;
  nlopt_opt opt = nullptr;          // to stop the solver when the budget refuses
  bool stopped = false;
  std::vector<double> best;         // the best feasible point evaluated (for a forced stop)
  double best_value = 0.0;
};

// Σ_j (ĝ_j - G_j) ln(ĝ_j / G_j) and, if asked, its gradient P^T (ln(ĝ/G) + 1 - G/ĝ).
double SymmetricKl(KlProblem& problem, const std::vector<double>& predicted, bool with_gradient) {
  double value = 0.0;
  for (std::size_t j = 0; j < predicted.size(); ++j) {
    const double g = problem.target[j];
    const double h = std::max(predicted[j], kMassFloor);
    const double difference = h - g;
    const double log_ratio = std::log1p(difference / g);  // ln(h / g), exact for tiny differences
    value += difference * log_ratio;
    if (with_gradient) problem.bracket[j] = log_ratio + difference / h;
  }
  return value;
}

// λ m^3 Σ (u_i+1 - u_i)^2, adding its gradient to `gradient` if given.
double Roughness(const double* u, unsigned n, double weight, double* gradient) {
  if (weight == 0.0) return 0.0;
  double value = 0.0;
  for (unsigned i = 0; i + 1 < n; ++i) {
    const double step = u[i + 1] - u[i];
    value += step * step;
    if (gradient != nullptr) {
      gradient[i] -= 2.0 * weight * step;
      gradient[i + 1] += 2.0 * weight * step;
    }
  }
  return weight * value;
}

// Feasible up to the solver's own tolerances: the masses are usable as they are.
bool Feasible(unsigned n, const double* u) {
  double sum = 0.0;
  for (unsigned i = 0; i < n; ++i) {
    if (!(u[i] >= -1e-12)) return false;
    sum += u[i];
  }
  return std::abs(sum - 1.0) < 1e-8;
}

double Objective(unsigned n, const double* u, double* gradient, void* data) {
  auto& problem = *static_cast<KlProblem*>(data);
  if (problem.opt != nullptr && !SpendWork(problem.budget, SqpWorkPerEvaluation(static_cast<int>(n)))) {
    problem.stopped = true;
    nlopt_force_stop(problem.opt);
    if (gradient != nullptr) std::fill(gradient, gradient + n, 0.0);
    return problem.best.empty() ? 0.0 : problem.best_value;
  }
  ++problem.evaluations;
  const std::vector<double> masses(u, u + n);
  const auto predicted = problem.transition->Apply(masses);
  double value = SymmetricKl(problem, predicted, gradient != nullptr);
  if (gradient != nullptr) {
    problem.transition->ApplyTransposed(problem.bracket, problem.back);
    std::copy(problem.back.begin(), problem.back.end(), gradient);
  }
  value += Roughness(u, n, problem.penalty_weight, gradient);
  if (problem.budget != nullptr && Feasible(n, u) && (problem.best.empty() || value < problem.best_value)) {
    problem.best.assign(u, u + n);
    problem.best_value = value;
  }
  return value;
}

double TotalMassConstraint(unsigned n, const double* u, double* gradient, void* /*data*/) {
  if (gradient != nullptr) std::fill(gradient, gradient + n, 1.0);
  return std::accumulate(u, u + n, 0.0) - 1.0;
}

struct NloptDeleter {
  void operator()(nlopt_opt opt) const { nlopt_destroy(opt); }
};
using NloptHandle = std::unique_ptr<std::remove_pointer_t<nlopt_opt>, NloptDeleter>;

}  // namespace

std::int64_t SqpWorkPerEvaluation(int points) {
  const std::int64_t m = points;
  return 2 * m * m + 3 * m * m * m;
}

double SilvermanMadBandwidth(NumericRange range, const std::vector<double>& counts) {
  const double total = std::accumulate(counts.begin(), counts.end(), 0.0);
  const double cell_width = range.width() / static_cast<double>(counts.size());
  if (!(total > 0.0)) return cell_width;
  GridDistribution values{range, counts};
  for (double& p : values.probabilities) p /= total;
  const double sigma = MedianAbsoluteDeviation(values) * kMadToSigma;
  const double rule = sigma * std::pow(4.0 / (3.0 * total), 0.2);
  return std::max(rule, cell_width);
}

std::vector<double> BinnedGaussianKde(NumericRange range, const std::vector<double>& counts,
                                      const std::vector<double>& points, double bandwidth, bool reflect) {
  const int cells = static_cast<int>(counts.size());
  const double total = std::accumulate(counts.begin(), counts.end(), 0.0);
  const double reach = kKernelReach * bandwidth;
  auto kernel = [bandwidth, reach](double distance) {
    if (std::abs(distance) > reach) return 0.0;
    const double t = distance / bandwidth;
    return kInvSqrtTwoPi * std::exp(-0.5 * t * t) / bandwidth;
  };
  std::vector<double> density(points.size(), 0.0);
  for (int j = 0; j < cells; ++j) {
    const double weight = counts[static_cast<std::size_t>(j)] / total;
    if (weight == 0.0) continue;
    const double y = CellCentre(range, cells, j);
    for (std::size_t k = 0; k < points.size(); ++k) {
      double sum = kernel(points[k] - y);
      if (reflect) sum += kernel(points[k] - (2.0 * range.low - y)) + kernel(points[k] - (2.0 * range.high - y));
      density[k] += weight * sum;
    }
  }
  return density;
}

Result<TransitionMatrix> PointTransitionMatrix(const TransitionDensity& density, NumericRange input,
                                               NumericRange output, int points) {
  DENIABLE_TRY(ValidateIntInRange(points, 2, kMaxKdeSqpPoints, "KDE-SQP points"));
  DENIABLE_TRY(CheckNumericRange(input, "input range"));
  DENIABLE_TRY(CheckNumericRange(output, "output range"));
  const double output_step = output.width() / points;
  std::vector<double> columns(static_cast<std::size_t>(points) * points);
  for (int i = 0; i < points; ++i) {
    const double x = CellCentre(input, points, i);
    for (int j = 0; j < points; ++j) {
      const double value = density(x, CellCentre(output, points, j));
      if (!std::isfinite(value) || value < 0.0) {
        return MakeError("transition density must be finite and non-negative, but is " + FormatNumber(value) +
                         " at x = " + FormatNumber(x));
      }
      columns[static_cast<std::size_t>(i) * points + j] = value * output_step;
    }
  }
  return TransitionMatrix::FromColumns(input, points, output, points, std::move(columns));
}

Result<SymmetricKlFit> MinimiseSymmetricKl(const TransitionMatrix& transition, const std::vector<double>& target,
                                           double smoothness, const SqpSettings& settings) {
  DENIABLE_TRY(ValidateSettings(settings));
  if (!std::isfinite(smoothness) || smoothness < 0.0) {
    return MakeError("smoothness must be a non-negative number, but is " + FormatNumber(smoothness));
  }
  if (static_cast<int>(target.size()) != transition.output_cells()) {
    return MakeError("the KDE target needs one entry per output point (" + std::to_string(transition.output_cells()) +
                     "), but has " + std::to_string(target.size()));
  }
  DENIABLE_TRY(ValidateTarget(target));
  const unsigned m = static_cast<unsigned>(transition.input_cells());
  KlProblem problem;
  problem.transition = &transition;
  problem.target = target;
  problem.penalty_weight = smoothness * m * m * m;
  problem.budget = settings.budget;
  const double total = std::accumulate(target.begin(), target.end(), 0.0);
  for (double& g : problem.target) g = std::max(g / total, kMassFloor);
  problem.bracket.assign(target.size(), 0.0);

  NloptHandle opt(nlopt_create(NLOPT_LD_SLSQP, m));
  if (!opt) return MakeError("could not create the SLSQP solver");
  nlopt_set_min_objective(opt.get(), Objective, &problem);
  nlopt_add_equality_constraint(opt.get(), TotalMassConstraint, nullptr, kEqualityTolerance);
  nlopt_set_lower_bounds1(opt.get(), 0.0);
  nlopt_set_upper_bounds1(opt.get(), 1.0);
  nlopt_set_ftol_rel(opt.get(), settings.relative_tolerance);
  nlopt_set_xtol_rel(opt.get(), settings.relative_tolerance);
  nlopt_set_maxeval(opt.get(), settings.max_evaluations);
  problem.opt = opt.get();

  std::vector<double> u(m, 1.0 / m);
  double value = 0.0;
  const nlopt_result status = nlopt_optimize(opt.get(), u.data(), &value);
  const bool forced = status == NLOPT_FORCED_STOP && problem.stopped;
  // ROUNDOFF_LIMITED and the stopping limits still leave the best point found
  // in u; a forced stop takes the best feasible point the callback saw.
  if (status < 0 && status != NLOPT_ROUNDOFF_LIMITED && !forced) {
    return MakeError(std::string("SLSQP failed: ") + nlopt_result_to_string(status));
  }
  if (forced && !problem.best.empty()) u = problem.best;
  auto distribution = MakeGridDistribution(transition.input_range(), u);
  if (!distribution) {
    for (double& mass : u) mass = std::max(mass, 0.0);
    distribution = MakeGridDistribution(transition.input_range(), u);
    if (!distribution) return MakeError("SLSQP returned an invalid point: " + distribution.error());
  }
  SymmetricKlFit fit;
  fit.probabilities = std::move(distribution.value().probabilities);
  problem.opt = nullptr;  // the final evaluation is not charged
  fit.objective = Objective(m, fit.probabilities.data(), nullptr, &problem);
  fit.evaluations = problem.evaluations - 1;
  fit.solver_status = nlopt_result_to_string(status);
  fit.cancelled = forced && settings.budget->Cancelled();
  fit.work_budget_exhausted = forced && !fit.cancelled;
  return fit;
}

Result<KdeSqpResult> EstimateKdeSqp(NumericRange output, const std::vector<double>& counts, NumericRange input,
                                    const TransitionDensity& density, const KdeSqpOptions& options) {
  DENIABLE_TRY(CheckNumericRange(output, "histogram range"));
  DENIABLE_TRY(ValidateKdeCounts(counts));
  if (!std::isfinite(options.bandwidth) || options.bandwidth < 0.0) {
    return MakeError("bandwidth must be a positive number, or 0 for the rule, but is " +
                     FormatNumber(options.bandwidth));
  }
  DENIABLE_ASSIGN_OR_RETURN(auto transition, PointTransitionMatrix(density, input, output, options.points));
  KdeSqpResult result;
  result.bandwidth = options.bandwidth > 0.0 ? options.bandwidth : SilvermanMadBandwidth(output, counts);
  const auto target =
      BinnedGaussianKde(output, counts, CellCentres(output, options.points), result.bandwidth, options.reflect);
  DENIABLE_ASSIGN_OR_RETURN(auto fit,
                            MinimiseSymmetricKl(transition, target, options.smoothness, options.solver));
  result.probabilities = std::move(fit.probabilities);
  result.objective = fit.objective;
  result.evaluations = fit.evaluations;
  result.solver_status = std::move(fit.solver_status);
  result.work_budget_exhausted = fit.work_budget_exhausted;
  result.cancelled = fit.cancelled;
  return result;
}

Result<KdeSqpResult> EstimateKdeSqp(const NumericHistogram& histogram, NumericRange input,
                                    const TransitionDensity& density, const KdeSqpOptions& options) {
  return EstimateKdeSqp(histogram.range(), histogram.counts_as_doubles(), input, density, options);
}

}  // namespace deniable
