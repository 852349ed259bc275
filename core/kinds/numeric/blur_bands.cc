#include "core/kinds/numeric/blur_bands.h"

#include <algorithm>
#include <cstddef>

namespace deniable {
namespace {

// Linear interpolation of values given on points, held constant beyond the ends.
double Interpolate(const std::vector<double>& points, const std::vector<double>& values, double x) {
  if (x <= points.front()) return values.front();
  if (x >= points.back()) return values.back();
  const auto upper = std::upper_bound(points.begin(), points.end(), x);
  const std::size_t k = static_cast<std::size_t>(upper - points.begin());
  const double t = (x - points[k - 1]) / (points[k] - points[k - 1]);
  return values[k - 1] + t * (values[k] - values[k - 1]);
}

}  // namespace

BootstrapBand WidenCdfBandForBlur(const std::vector<double>& points, const BootstrapBand& band,
                                  const std::vector<double>& blurs) {
  BootstrapBand widened = band;
  // The CDF band is non-decreasing in x, so over [x - blur, x + blur] its low
  // is smallest at the left end and its high largest at the right end.
  for (std::size_t k = 0; k < points.size(); ++k) {
    if (!(blurs[k] > 0.0)) continue;
    widened.low[k] = std::min(band.low[k], Interpolate(points, band.low, points[k] - blurs[k]));
    widened.high[k] = std::max(band.high[k], Interpolate(points, band.high, points[k] + blurs[k]));
  }
  return widened;
}

std::vector<double> BlurNearEnds(const std::vector<double>& points, double blur, const EndReach& reach,
                                 NumericRange range) {
  std::vector<double> blurs;
  for (double x : points) {
    double local = blur;
    if (x - range.low < reach.low) local = std::max(local, reach.low);
    if (range.high - x < reach.high) local = std::max(local, reach.high);
    blurs.push_back(local);
  }
  return blurs;
}

void WidenHistogramBandForBlur(const std::vector<double>& edges, const std::vector<double>& cdf_points,
                               const BootstrapBand& cdf_band, double blur, BootstrapBand& band) {
  if (!(blur > 0.0) || cdf_points.empty() || edges.size() < 2) return;
  // The CDF is 0 at the range's low end and 1 at its high end (the outer edges).
  auto cdf = [&](const std::vector<double>& values, double x) {
    if (x <= edges.front()) return 0.0;
    if (x >= edges.back()) return 1.0;
    return Interpolate(cdf_points, values, x);
  };
  for (std::size_t k = 0; k + 1 < edges.size(); ++k) {
    const double a = edges[k], b = edges[k + 1];
    const double least = cdf(cdf_band.low, b - blur) - cdf(cdf_band.high, a + blur);
    const double most = cdf(cdf_band.high, b + blur) - cdf(cdf_band.low, a - blur);
    band.low[k] = std::min(band.low[k], std::clamp(least, 0.0, 1.0));
    band.high[k] = std::max(band.high[k], std::clamp(most, 0.0, 1.0));
  }
}

BootstrapBand WindowedDensityBand(const std::vector<double>& cdf_points, const BootstrapBand& cdf_band,
                                  NumericRange range, double half_window, const std::vector<double>& density) {
  auto cdf = [&](const std::vector<double>& values, double x) {
    if (x <= range.low) return 0.0;
    if (x >= range.high) return 1.0;
    return Interpolate(cdf_points, values, x);
  };
  BootstrapBand band{std::vector<double>(cdf_points.size()), std::vector<double>(cdf_points.size())};
  for (std::size_t k = 0; k < cdf_points.size(); ++k) {
    const double a = std::max(range.low, cdf_points[k] - half_window);
    const double b = std::min(range.high, cdf_points[k] + half_window);
    const double least = std::max(0.0, cdf(cdf_band.low, b) - cdf(cdf_band.high, a));
    const double most = std::min(1.0, cdf(cdf_band.high, b) - cdf(cdf_band.low, a));
    band.low[k] = std::min(least / (b - a), density[k]);
    band.high[k] = std::max(most / (b - a), density[k]);
  }
  return band;
}

BootstrapInterval QuantileRangeFromCdfBand(const std::vector<double>& points, const BootstrapBand& cdf_band, double q,
                                           NumericRange range) {
  BootstrapInterval interval{range.low, range.high};
  const std::size_t n = points.size();
  for (std::size_t k = 0; k < n; ++k) {
    if (cdf_band.high[k] >= q) {
      interval.low = k == 0 ? range.low : points[k - 1];
      break;
    }
  }
  for (std::size_t k = n; k-- > 0;) {
    if (cdf_band.low[k] <= q) {
      interval.high = k + 1 == n ? range.high : points[k + 1];
      break;
    }
  }
  return interval;
}

}  // namespace deniable
