#include "core/distribution/bootstrap.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>

#include "core/common/seeded_random.h"
#include "core/common/validation.h"
#include "core/numeric/gaussian_pdp.h"

namespace deniable {
namespace {

// Below this mean, Binomial draws use inversion (expected mean + 1 steps).
constexpr double kInversionMaxMean = 16.0;

// Adapts RandomSource to the standard library's UniformRandomBitGenerator.
class RandomBits {
 public:
  using result_type = std::uint64_t;
  explicit RandomBits(RandomSource& random) : random_(random) {}
  static constexpr result_type min() { return 0; }
  static constexpr result_type max() { return std::numeric_limits<result_type>::max(); }
  result_type operator()() { return random_.NextU64(); }

 private:
  RandomSource& random_;
};

// Inversion by sequential search: P(x) / P(x - 1) = (n + 1) s / x - s, s = p / q.
std::int64_t BinomialByInversion(std::int64_t trials, double p, RandomSource& random) {
  const double s = p / (1.0 - p);
  const double a = static_cast<double>(trials + 1) * s;
  const double first = std::exp(static_cast<double>(trials) * std::log1p(-p));
  for (;;) {
    double u = UniformUnit(random);
    double probability = first;
    for (std::int64_t x = 0; x <= trials; ++x) {
      if (u < probability) return x;
      u -= probability;
      probability *= a / static_cast<double>(x + 1) - s;
    }
    // Only round-off leaves u above the total mass: draw again.
  }
}

Status ValidateLevel(double level) {
  if (!(level > 0.0 && level < 1.0)) return MakeError("band level must be in (0, 1), but is " + FormatNumber(level));
  return OkStatus();
}

Status ValidateSample(const BootstrapSample& sample) {
  if (sample.replicates.size() < 2) return MakeError("a bootstrap band needs at least 2 replicates");
  if (sample.world.probabilities.size() != sample.fitted.probabilities.size()) {
    return MakeError("the bootstrap's world must be on the fitted distribution's grid");
  }
  return OkStatus();
}

// The values a quantity can take; intervals are clipped to them.
struct Bounds {
  double low;
  double high;
};
constexpr double kInfinity = std::numeric_limits<double>::infinity();

BootstrapInterval IntervalOf(const std::vector<double>& replicates, double estimate, double world_value,
                             double level, BandMethod method, Bounds bounds) {
  // The replicates' errors in their world, placed around the estimate.
  const double error_low = Percentile(replicates, 0.5 * (1.0 - level)) - world_value;
  const double error_high = Percentile(replicates, 0.5 * (1.0 + level)) - world_value;
  const BootstrapInterval percentile{estimate + error_low, estimate + error_high};
  const BootstrapInterval basic{estimate - error_high, estimate - error_low};
  BootstrapInterval interval = percentile;
  if (method == BandMethod::kBasic) interval = basic;
  if (method == BandMethod::kBiasAware) {
    interval = {std::min(percentile.low, basic.low), std::max(percentile.high, basic.high)};
  }
  interval.low = std::clamp(interval.low, bounds.low, bounds.high);
  interval.high = std::clamp(interval.high, bounds.low, bounds.high);
  return interval;
}

// The estimate +- z times the replicates' root-mean-square error about their
// world's value (bootstrap.h), clipped to the bounds.
BootstrapInterval RootMeanSquareInterval(const std::vector<double>& replicates, double estimate, double world_value,
                                         double level, Bounds bounds) {
  double mean = 0.0;
  for (double value : replicates) mean += value / static_cast<double>(replicates.size());
  double squares = 0.0;
  for (double value : replicates) squares += (value - mean) * (value - mean);
  const double variance = squares / static_cast<double>(replicates.size() - 1);
  const double bias = mean - world_value;
  const double half = PortableNormalQuantile(0.5 * (1.0 + level)) * std::sqrt(variance + bias * bias);
  return {std::clamp(estimate - half, bounds.low, bounds.high), std::clamp(estimate + half, bounds.low, bounds.high)};
}

// Per position k, the interval of replicates[r][k] around estimate[k] (world[k] their world's value).
BootstrapBand PointwiseBand(const std::vector<std::vector<double>>& replicates, const std::vector<double>& estimate,
                            const std::vector<double>& world, double level, BandMethod method, Bounds bounds) {
  BootstrapBand band;
  std::vector<double> values(replicates.size());
  for (std::size_t k = 0; k < estimate.size(); ++k) {
    for (std::size_t r = 0; r < replicates.size(); ++r) values[r] = replicates[r][k];
    const BootstrapInterval interval = IntervalOf(values, estimate[k], world[k], level, method, bounds);
    band.low.push_back(interval.low);
    band.high.push_back(interval.high);
  }
  return band;
}

Status ValidateBootstrapInputs(const GridDistribution& fitted, const TransitionMatrix& transition, std::int64_t reports,
                               int values_per_report, const BootstrapOptions& options) {
  DENIABLE_TRY(ValidateGridDistribution(fitted));
  const NumericRange input = transition.input_range();
  if (static_cast<int>(fitted.probabilities.size()) != transition.input_cells() || fitted.range.low != input.low ||
      fitted.range.high != input.high) {
    return MakeError("the fitted distribution (" + std::to_string(fitted.probabilities.size()) +
                     " cells) must be on the transition matrix's input grid (" +
                     std::to_string(transition.input_cells()) + " cells over [" + FormatNumber(input.low) + ", " +
                     FormatNumber(input.high) + "])");
  }
  if (reports < 1) return MakeError("the bootstrap needs at least one report, but n is " + std::to_string(reports));
  DENIABLE_TRY(ValidateIntInRange(values_per_report, 1, 1000000, "values per report"));
  return ValidateIntInRange(options.replicates, 2, kMaxBootstrapReplicates, "bootstrap replicates");
}

}  // namespace

std::int64_t SampleBinomial(std::int64_t trials, double p, RandomSource& random) {
  if (trials <= 0 || !(p > 0.0)) return 0;
  if (p >= 1.0) return trials;
  if (p > 0.5) return trials - SampleBinomial(trials, 1.0 - p, random);
  if (static_cast<double>(trials) * p < kInversionMaxMean) return BinomialByInversion(trials, p, random);
  RandomBits bits(random);
  return std::binomial_distribution<std::int64_t>(trials, p)(bits);
}

std::vector<std::int64_t> SampleMultinomial(std::int64_t trials, const std::vector<double>& probabilities,
                                            RandomSource& random) {
  std::vector<std::int64_t> counts(probabilities.size(), 0);
  // Mass of cells j.. onwards; each cell takes Binomial(remaining, p_j / rest).
  std::vector<double> rest(probabilities.size() + 1, 0.0);
  for (std::size_t j = probabilities.size(); j-- > 0;) rest[j] = rest[j + 1] + std::max(probabilities[j], 0.0);
  std::int64_t remaining = trials;
  for (std::size_t j = 0; j < probabilities.size() && remaining > 0; ++j) {
    if (!(rest[j] > 0.0)) break;
    const double share = std::max(probabilities[j], 0.0) / rest[j];
    counts[j] =
        j + 1 == probabilities.size() || !(rest[j + 1] > 0.0) ? remaining : SampleBinomial(remaining, share, random);
    remaining -= counts[j];
  }
  return counts;
}

std::vector<double> SimulateOutputCounts(const std::vector<double>& input_probabilities,
                                         const TransitionMatrix& transition, std::int64_t reports,
                                         int values_per_report, RandomSource& random) {
  std::vector<double> counts(static_cast<std::size_t>(transition.output_cells()), 0.0);
  if (values_per_report == 1) {
    const auto drawn = SampleMultinomial(reports, transition.Apply(input_probabilities), random);
    std::copy(drawn.begin(), drawn.end(), counts.begin());
    return counts;
  }
  const auto answers = SampleMultinomial(reports, input_probabilities, random);
  for (int i = 0; i < transition.input_cells(); ++i) {
    const std::int64_t users = answers[static_cast<std::size_t>(i)];
    if (users == 0) continue;
    const int begin = transition.band_begin(i);
    const std::vector<double> column(transition.column(i) + begin, transition.column(i) + transition.band_end(i));
    const auto drawn = SampleMultinomial(users * values_per_report, column, random);
    for (std::size_t j = 0; j < drawn.size(); ++j) counts[begin + j] += static_cast<double>(drawn[j]);
  }
  return counts;
}

std::uint64_t ReplicateSeed(std::uint64_t seed, int replicate) {
  // SplitMix64's finaliser over seed + (replicate + 1) x the golden ratio.
  std::uint64_t z = seed + static_cast<std::uint64_t>(replicate + 1) * 0x9e3779b97f4a7c15ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

Result<BootstrapSample> ParametricBootstrap(const GridDistribution& fitted, const TransitionMatrix& transition,
                                            std::int64_t reports, int values_per_report, const Reestimator& reestimate,
                                            const BootstrapOptions& options) {
  DENIABLE_TRY(ValidateBootstrapInputs(fitted, transition, reports, values_per_report, options));
  if (options.world) DENIABLE_TRY(ValidateBootstrapInputs(*options.world, transition, reports, values_per_report, options));
  BootstrapSample sample;
  sample.fitted = fitted;
  sample.world = options.world ? *options.world : fitted;
  // One slot per replicate, written only by its own piece.
  std::vector<Result<std::vector<double>>> estimates(static_cast<std::size_t>(options.replicates),
                                                     MakeError(kBootstrapCancelled, ErrorCode::kCancelled));
  const auto replicate = [&](int r) {
    if (options.cancelled && options.cancelled()) return;  // the slot stays "cancelled"
    SeededRandom random(ReplicateSeed(options.seed, r));
    const auto counts = SimulateOutputCounts(sample.world.probabilities, transition, reports, values_per_report, random);
    estimates[static_cast<std::size_t>(r)] = reestimate(counts, r);
  };
  for (int first = 0; first < options.replicates; first += kBootstrapBatch) {
    const int count = std::min(kBootstrapBatch, options.replicates - first);
    if (options.before_batch) options.before_batch(first, count);
    RunPieces(options.parallel, count, [&](int index) { replicate(first + index); });
    if (options.cancelled && options.cancelled()) return MakeError(kBootstrapCancelled, ErrorCode::kCancelled);
  }
  // In replicate order, whichever thread ran which.
  std::string first_error;
  for (auto& estimate : estimates) {
    if (!estimate && estimate.error_code() == ErrorCode::kCancelled) {
      return MakeError(kBootstrapCancelled, ErrorCode::kCancelled);
    }
    Result<GridDistribution> drawn = estimate ? MakeGridDistribution(fitted.range, std::move(estimate.value()))
                                              : Result<GridDistribution>(MakeError(estimate.error()));
    if (drawn && drawn->probabilities.size() == fitted.probabilities.size()) {
      sample.replicates.push_back(std::move(drawn.value()));
    } else {
      if (first_error.empty()) first_error = drawn ? "re-estimate has the wrong number of cells" : drawn.error();
      ++sample.failures;
    }
  }
  if (2 * sample.failures > options.replicates) {
    return MakeError("bootstrap: " + std::to_string(sample.failures) + " of " + std::to_string(options.replicates) +
                     " re-estimates failed, the first with: " + first_error);
  }
  return sample;
}

double Percentile(std::vector<double> values, double q) {
  std::sort(values.begin(), values.end());
  const double position = std::clamp(q, 0.0, 1.0) * static_cast<double>(values.size() - 1);
  const auto below = static_cast<std::size_t>(std::floor(position));
  const std::size_t above = std::min(below + 1, values.size() - 1);
  return values[below] + (position - static_cast<double>(below)) * (values[above] - values[below]);
}

Result<CurveBands> DensityAndCdfBands(const BootstrapSample& sample, int points, double level, BandMethod method) {
  DENIABLE_TRY(ValidateSample(sample));
  DENIABLE_TRY(ValidateLevel(level));
  DENIABLE_ASSIGN_OR_RETURN(auto fitted, DensityOnPoints(sample.fitted, points));
  const auto world = DensityOnPoints(sample.world, points).value();  // the same grid
  std::vector<std::vector<double>> densities;
  std::vector<std::vector<double>> cdfs;
  for (const auto& replicate : sample.replicates) {
    auto curve = DensityOnPoints(replicate, points).value();  // same grid and points as the fitted curve
    densities.push_back(std::move(curve.density));
    cdfs.push_back(std::move(curve.cdf));
  }
  CurveBands bands;
  bands.points = fitted.points;
  bands.density = PointwiseBand(densities, fitted.density, world.density, level, method, {0.0, kInfinity});
  bands.cdf = PointwiseBand(cdfs, fitted.cdf, world.cdf, level, method, {0.0, 1.0});
  return bands;
}

Result<BootstrapBand> HistogramBand(const BootstrapSample& sample, double bin_width, double level, BandMethod method) {
  DENIABLE_TRY(ValidateSample(sample));
  DENIABLE_TRY(ValidateLevel(level));
  DENIABLE_ASSIGN_OR_RETURN(auto fitted, HistogramWithBinWidth(sample.fitted, bin_width));
  std::vector<std::vector<double>> masses;
  for (const auto& replicate : sample.replicates) {
    masses.push_back(HistogramWithBinWidth(replicate, bin_width).value().probabilities);
  }
  const auto world = HistogramWithBinWidth(sample.world, bin_width).value().probabilities;
  return PointwiseBand(masses, fitted.probabilities, world, level, method, {0.0, 1.0});
}

Result<SummaryIntervals> StatisticIntervals(const BootstrapSample& sample, double level, BandMethod method) {
  DENIABLE_TRY(ValidateSample(sample));
  DENIABLE_TRY(ValidateLevel(level));
  const SummaryStatistics fitted = Summarize(sample.fitted);
  const SummaryStatistics world = Summarize(sample.world);
  std::vector<SummaryStatistics> replicates;
  for (const auto& replicate : sample.replicates) replicates.push_back(Summarize(replicate));
  const NumericRange range = sample.fitted.range;
  auto interval = [&](double SummaryStatistics::*field, Bounds bounds) {
    std::vector<double> values;
    for (const auto& s : replicates) values.push_back(s.*field);
    if (method == BandMethod::kBiasAware) return RootMeanSquareInterval(values, fitted.*field, world.*field, level, bounds);
    return IntervalOf(values, fitted.*field, world.*field, level, method, bounds);
  };
  const Bounds location{range.low, range.high};
  SummaryIntervals intervals{interval(&SummaryStatistics::mean, location),
                             interval(&SummaryStatistics::standard_deviation, {0.0, 0.5 * range.width()}),
                             interval(&SummaryStatistics::median, location),
                             interval(&SummaryStatistics::lower_quartile, location),
                             interval(&SummaryStatistics::upper_quartile, location),
                             interval(&SummaryStatistics::skewness, {-kInfinity, kInfinity}),
                             interval(&SummaryStatistics::kurtosis, {1.0, kInfinity})};
  if (method == BandMethod::kBiasAware) {
    // The grid's resolution: the estimate spreads each cell's mass evenly, so
    // where in its cell a quantile lies is not in the replicates' spread
    // (they share the grid). Half a cell each side: a whole cell (the most
    // the even spread can misplace it) made the quartiles' intervals 1.4-2.4
    // times the width an exact interval would have on smooth answers at
    // n = 20,000, where half a cell kept their coverage at 90% or more (bench/coverage.cc).
    const double half_cell = 0.5 * range.width() / static_cast<double>(sample.fitted.probabilities.size());
    for (BootstrapInterval* quantile : {&intervals.median, &intervals.lower_quartile, &intervals.upper_quartile}) {
      quantile->low = std::max(range.low, quantile->low - half_cell);
      quantile->high = std::min(range.high, quantile->high + half_cell);
    }
  }
  return intervals;
}

}  // namespace deniable
