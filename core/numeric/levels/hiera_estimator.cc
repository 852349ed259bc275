#include "core/numeric/levels/hiera_estimator.h"

#include <algorithm>
#include <cmath>

#include "core/distribution/bootstrap.h"

namespace deniable {
namespace {

double Calibration(double keep) { return 1.0 / (2.0 * keep - 1.0); }

// The last level row d converts to, and how many times its own records sit in
// column d (compensation: m_d = max(1, mu - k + d + 1), 0-indexed), so that
// every record counts exactly mu times over all columns (digest §3.5).
int LastConversion(int d, int k, int reuse) { return std::min(k - 1, d + reuse - 1); }
std::int64_t OwnCopies(int d, int k, int reuse) { return std::max(1, reuse - k + d + 1); }

// The extra variance per record of reported level d that conversion adds:
// (1/mu^2) sum_j (C_j^2 - C_d^2) over its conversions (digest §3.6).
double ConversionVariance(int d, const std::vector<double>& keep, int reuse) {
  const int k = static_cast<int>(keep.size());
  const double own = Calibration(keep[d]);
  double extra = 0.0;
  for (int j = d + 1; j <= LastConversion(d, k, reuse); ++j) {
    const double c = Calibration(keep[j]);
    extra += c * c - own * own;
  }
  return extra / (static_cast<double>(reuse) * reuse);
}

HierAColumn Debias(std::int64_t plus, std::int64_t minus, double keep, bool clamp) {
  HierAColumn column;
  const double size = static_cast<double>(plus + minus);
  column.size = size;
  if (size == 0.0) return column;  // an empty column adds nothing (digest §6.6)
  double n1 = (keep * size - static_cast<double>(minus)) / (2.0 * keep - 1.0);
  if (clamp && (n1 < 0.0 || n1 > size)) {
    n1 = std::clamp(n1, 0.0, size);
    column.clamped = true;
  }
  column.sum = n1 - (size - n1);  // n2* = N - n1* before and after the clamp
  return column;
}

}  // namespace

std::int64_t LevelBitCounts::total() const {
  std::int64_t n = 0;
  for (std::size_t d = 0; d < plus.size(); ++d) n += plus[d] + minus[d];
  return n;
}

double ConversionFlipProbability(double p_from, double p_to) { return (p_from - p_to) / (2.0 * p_from - 1.0); }

std::pair<std::int64_t, std::int64_t> ConvertLevel(std::int64_t plus, std::int64_t minus, double p_from,
                                                   double p_to, RandomSource& random) {
  const double flip = ConversionFlipProbability(p_from, p_to);
  const std::int64_t plus_flipped = SampleBinomial(plus, flip, random);
  const std::int64_t minus_flipped = SampleBinomial(minus, flip, random);
  return {plus - plus_flipped + minus_flipped, minus - minus_flipped + plus_flipped};
}

Result<HierAEstimate> EstimateHierA(const LevelBitCounts& counts, const std::vector<double>& keep,
                                    const HierAOptions& options, RandomSource& random) {
  const int k = static_cast<int>(keep.size());
  if (k == 0 || counts.plus.size() != keep.size() || counts.minus.size() != keep.size()) {
    return MakeError("HierA needs counts for every level");
  }
  if (options.reuse < 1) return MakeError("mu must be at least 1");
  const std::int64_t n = counts.total();
  if (n == 0) return MakeError("no reports");
  std::vector<std::int64_t> column_plus(k, 0), column_minus(k, 0);
  for (int d = 0; d < k; ++d) {
    column_plus[d] += OwnCopies(d, k, options.reuse) * counts.plus[d];
    column_minus[d] += OwnCopies(d, k, options.reuse) * counts.minus[d];
    for (int j = d + 1; j <= LastConversion(d, k, options.reuse); ++j) {
      const auto [plus, minus] = ConvertLevel(counts.plus[d], counts.minus[d], keep[d], keep[j], random);
      column_plus[j] += plus;
      column_minus[j] += minus;
    }
  }
  HierAEstimate estimate;
  double total = 0.0;
  for (int j = 0; j < k; ++j) {
    estimate.columns.push_back(Debias(column_plus[j], column_minus[j], keep[j], options.clamp));
    estimate.clamped_any = estimate.clamped_any || estimate.columns.back().clamped;
    total += estimate.columns.back().sum;
  }
  const double records = static_cast<double>(n);
  estimate.mean = total / (static_cast<double>(options.reuse) * records);
  // Var(mean) = (1/n) [Var(C_d * bit) + E(conversion variance)], both estimated from the reports.
  double sum = 0.0, sum_squares = 0.0, conversion = 0.0;
  for (int d = 0; d < k; ++d) {
    const double c = Calibration(keep[d]);
    const double reports = static_cast<double>(counts.plus[d] + counts.minus[d]);
    sum += c * static_cast<double>(counts.plus[d] - counts.minus[d]);
    sum_squares += c * c * reports;
    conversion += reports * ConversionVariance(d, keep, options.reuse);
  }
  const double mean_bit = sum / records;
  const double bit_variance = n > 1 ? std::max(0.0, (sum_squares - records * mean_bit * mean_bit) / (records - 1.0)) : 0.0;
  estimate.variance = (bit_variance + conversion / records) / records;
  return estimate;
}

}  // namespace deniable
