// Data and reference statistics for bench/rvns_study.cc (header-only: every
// bench/*.cc is its own executable, so helpers cannot be separate objects).
//
// The paper's synthetic datasets (digest §7.2): chi-square with df degrees of
// freedom, confined to [0, 10]. The paper does not say how; we use rejection
// (the digest's assumed reading), so the truth is the truncated chi-square.
#pragma once

#include <algorithm>
#include <cmath>
#include <vector>

#include "core/numeric/numeric_mechanism.h"
#include "core/kinds/numeric/numeric_truth.h"
#include "core/common/random_source.h"

namespace rvns_study {

// Normals come from core's sampler (the one `simulate` uses).
using deniable::StandardNormal;

// Chi-square with integer df as a sum of df squared standard normals,
// redrawn until it falls in [0, upper] (rejection = truncation).
inline double TruncatedChiSquare(int df, double upper, deniable::RandomSource& random) {
  for (;;) {
    double sum = 0.0;
    for (int i = 0; i < df; ++i) {
      const double z = StandardNormal(random);
      sum += z * z;
    }
    if (sum <= upper) return sum;
  }
}

inline std::vector<double> TruncatedChiSquareSample(int df, double upper, int n, deniable::RandomSource& random) {
  std::vector<double> sample(static_cast<std::size_t>(n));
  for (double& x : sample) x = TruncatedChiSquare(df, upper, random);
  return sample;
}

// The statistics the paper compares (digest §7.3, "six statistics" minus the
// mode, which is ill-defined on continuous data): population (biased) moments,
// kurtosis not excess, as MATLAB's defaults and core's Summarize.
struct SampleStatistics {
  double mean;
  double standard_deviation;
  double median;
  double skewness;
  double kurtosis;
};

inline SampleStatistics ComputeSampleStatistics(std::vector<double> sample) {
  const double n = static_cast<double>(sample.size());
  double mean = 0.0;
  for (double x : sample) mean += x;
  mean /= n;
  double m2 = 0.0, m3 = 0.0, m4 = 0.0;
  for (double x : sample) {
    const double d = x - mean;
    m2 += d * d;
    m3 += d * d * d;
    m4 += d * d * d * d;
  }
  m2 /= n;
  m3 /= n;
  m4 /= n;
  std::sort(sample.begin(), sample.end());
  const std::size_t half = sample.size() / 2;
  const double median = sample.size() % 2 == 1 ? sample[half] : 0.5 * (sample[half - 1] + sample[half]);
  return {mean, std::sqrt(m2), median, m3 / std::pow(m2, 1.5), m4 / (m2 * m2)};
}

// The true distribution on the estimation grid: the sample's mass in each of
// `cells` equal cells over the range (the last cell closed at the top).
inline std::vector<double> EmpiricalCellMasses(const std::vector<double>& sample, deniable::NumericRange range,
                                               int cells) {
  std::vector<double> masses(static_cast<std::size_t>(cells), 0.0);
  const double width = range.width() / cells;
  for (double x : sample) {
    const int cell = std::clamp(static_cast<int>((x - range.low) / width), 0, cells - 1);
    masses[static_cast<std::size_t>(cell)] += 1.0;
  }
  for (double& mass : masses) mass /= static_cast<double>(sample.size());
  return masses;
}

// Wasserstein-1 in data units between two distributions on the same equal
// cells: sum over cells of |F_a - F_b| at the cells' upper edges, times the
// cell width (the paper's eq. 19 times Δz; digest §7.3).
inline double GridWasserstein1(const std::vector<double>& a, const std::vector<double>& b, double cell_width) {
  double cdf_a = 0.0, cdf_b = 0.0, total = 0.0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    cdf_a += a[i];
    cdf_b += b[i];
    total += std::fabs(cdf_a - cdf_b);
  }
  return total * cell_width;
}

}  // namespace rvns_study
