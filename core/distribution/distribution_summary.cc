#include "core/distribution/distribution_summary.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "core/distribution/numeric_histogram.h"
#include "core/common/validation.h"

namespace deniable {
namespace {

constexpr double kSumTolerance = 1e-6;
constexpr double kRoundOff = 1e-12;

// The piecewise-linear CDF of a grid distribution, precomputed at the cell edges.
class PiecewiseLinearCdf {
 public:
  explicit PiecewiseLinearCdf(const GridDistribution& distribution)
      : range_(distribution.range),
        cells_(static_cast<int>(distribution.probabilities.size())),
        cumulative_(distribution.probabilities.size() + 1, 0.0) {
    std::partial_sum(distribution.probabilities.begin(), distribution.probabilities.end(), cumulative_.begin() + 1);
    const double total = cumulative_.back();
    for (double& value : cumulative_) value /= total;
  }

  double Edge(int e) const {
    return e >= cells_ ? range_.high : range_.low + range_.width() * static_cast<double>(e) / cells_;
  }

  double operator()(double x) const {
    if (!(x > range_.low)) return 0.0;
    if (x >= range_.high) return 1.0;
    const int i = std::min(static_cast<int>((x - range_.low) / range_.width() * cells_), cells_ - 1);
    const double fraction = std::clamp((x - Edge(i)) / (Edge(i + 1) - Edge(i)), 0.0, 1.0);
    return cumulative_[static_cast<std::size_t>(i)] +
           fraction * (cumulative_[static_cast<std::size_t>(i) + 1] - cumulative_[static_cast<std::size_t>(i)]);
  }

  double Inverse(double p) const {
    p = std::clamp(p, 0.0, 1.0);
    // The first edge at which F reaches p; the cell before it has positive mass.
    const auto at = std::lower_bound(cumulative_.begin() + 1, cumulative_.end(), p > 0.0 ? p : 1e-300);
    const int e = static_cast<int>(std::min(at, cumulative_.end() - 1) - cumulative_.begin());
    const double below = cumulative_[static_cast<std::size_t>(e) - 1];
    const double mass = cumulative_[static_cast<std::size_t>(e)] - below;
    const double fraction = mass > 0.0 ? std::clamp((p - below) / mass, 0.0, 1.0) : 0.0;
    return Edge(e - 1) + fraction * (Edge(e) - Edge(e - 1));
  }

 private:
  NumericRange range_;
  int cells_;
  std::vector<double> cumulative_;
};

}  // namespace

Status ValidateGridDistribution(const GridDistribution& distribution) {
  DENIABLE_TRY(CheckNumericRange(distribution.range, "distribution range"));
  if (distribution.probabilities.empty()) return MakeError("a distribution needs at least one cell");
  double sum = 0.0;
  for (std::size_t i = 0; i < distribution.probabilities.size(); ++i) {
    const double p = distribution.probabilities[i];
    if (!std::isfinite(p) || p < 0.0) {
      return MakeError("cell probability " + std::to_string(i) + " must be finite and non-negative, but is " +
                       FormatNumber(p));
    }
    sum += p;
  }
  if (std::abs(sum - 1.0) > kSumTolerance) {
    return MakeError("cell probabilities must sum to 1, but sum to " + FormatNumber(sum));
  }
  return OkStatus();
}

Result<GridDistribution> MakeGridDistribution(NumericRange range, std::vector<double> probabilities) {
  double sum = 0.0;
  for (double& p : probabilities) {
    if (p < 0.0 && p > -kRoundOff) p = 0.0;
    sum += p;
  }
  if (sum > 0.0 && std::isfinite(sum)) {
    for (double& p : probabilities) p /= sum;
  }
  GridDistribution distribution{range, std::move(probabilities)};
  DENIABLE_TRY(ValidateGridDistribution(distribution));
  return distribution;
}

double Cdf(const GridDistribution& distribution, double x) { return PiecewiseLinearCdf(distribution)(x); }

double Quantile(const GridDistribution& distribution, double p) { return PiecewiseLinearCdf(distribution).Inverse(p); }

SummaryStatistics Summarize(const GridDistribution& distribution) {
  const auto& probabilities = distribution.probabilities;
  const int m = static_cast<int>(probabilities.size());
  const double width = distribution.range.width() / m;
  const double half = 0.5 * width;
  auto centre = [&](int i) { return distribution.range.low + (i + 0.5) * width; };

  double mean = 0.0;
  for (int i = 0; i < m; ++i) mean += probabilities[static_cast<std::size_t>(i)] * centre(i);
  double second = 0.0;
  double third = 0.0;
  double fourth = 0.0;
  for (int i = 0; i < m; ++i) {
    const double p = probabilities[static_cast<std::size_t>(i)];
    const double d = centre(i) - mean;
    second += p * (d * d + half * half / 3.0);
    third += p * (d * d * d + d * half * half);
    fourth += p * (d * d * d * d + 2.0 * d * d * half * half + half * half * half * half / 5.0);
  }
  const PiecewiseLinearCdf cdf(distribution);
  SummaryStatistics statistics{};
  statistics.mean = mean;
  statistics.standard_deviation = std::sqrt(second);
  statistics.median = cdf.Inverse(0.5);
  statistics.lower_quartile = cdf.Inverse(0.25);
  statistics.upper_quartile = cdf.Inverse(0.75);
  statistics.skewness = third / (second * std::sqrt(second));
  statistics.kurtosis = fourth / (second * second);
  return statistics;
}

Result<DensityCurve> DensityOnPoints(const GridDistribution& distribution, int points) {
  DENIABLE_TRY(ValidateGridDistribution(distribution));
  DENIABLE_TRY(ValidateIntInRange(points, 1, kMaxDensityPoints, "density points"));
  const PiecewiseLinearCdf cdf(distribution);
  const NumericRange range = distribution.range;
  DensityCurve curve;
  double previous = 0.0;
  for (int k = 0; k < points; ++k) {
    const double low = range.low + range.width() * k / points;
    const double high = k + 1 == points ? range.high : range.low + range.width() * (k + 1) / points;
    const double upper = k + 1 == points ? 1.0 : cdf(high);
    const double centre = 0.5 * (low + high);
    curve.points.push_back(centre);
    curve.density.push_back((upper - previous) / (high - low));
    curve.cdf.push_back(cdf(centre));
    previous = upper;
  }
  return curve;
}

Result<BinnedHistogram> HistogramWithBinWidth(const GridDistribution& distribution, double bin_width) {
  DENIABLE_TRY(ValidateGridDistribution(distribution));
  const NumericRange range = distribution.range;
  if (!std::isfinite(bin_width) || bin_width <= 0.0) {
    return MakeError("bin width must be a positive number, but is " + FormatNumber(bin_width));
  }
  const double bins = std::ceil(range.width() / bin_width * (1.0 - 1e-12));
  if (bins > kMaxHistogramBins) {
    return MakeError("bin width " + FormatNumber(bin_width) + " gives " + FormatNumber(bins) + " bins; at most " +
                     std::to_string(kMaxHistogramBins) + " are allowed");
  }
  const int count = std::max(1, static_cast<int>(bins));
  const PiecewiseLinearCdf cdf(distribution);
  BinnedHistogram histogram;
  histogram.edges.push_back(range.low);
  double previous = 0.0;
  for (int k = 1; k <= count; ++k) {
    const double edge = k == count ? range.high : range.low + k * bin_width;
    const double upper = k == count ? 1.0 : cdf(edge);
    histogram.edges.push_back(edge);
    histogram.probabilities.push_back(upper - previous);
    previous = upper;
  }
  return histogram;
}

}  // namespace deniable
