#include "core/distribution/curvature_smoother.h"

#include <algorithm>
#include <numeric>

namespace deniable {
namespace {

constexpr double kWeightFloor = 1e-12;

// A symmetric positive-definite pentadiagonal matrix: diagonal, first and
// second sub-diagonals (entry i of `first` is A[i][i-1], of `second` A[i][i-2]).
struct Pentadiagonal {
  std::vector<double> diagonal, first, second;
};

// diag(weights) + strength D'D, with D the (m - 2) x m second-difference operator.
Pentadiagonal CurvatureSystem(const std::vector<double>& weights, double strength) {
  const std::size_t m = weights.size();
  Pentadiagonal a{weights, std::vector<double>(m, 0.0), std::vector<double>(m, 0.0)};
  constexpr double kStencil[3] = {1.0, -2.0, 1.0};
  for (std::size_t row = 0; row + 2 < m; ++row) {
    for (std::size_t p = 0; p < 3; ++p) {
      a.diagonal[row + p] += strength * kStencil[p] * kStencil[p];
      for (std::size_t q = 0; q < p; ++q) {
        const double value = strength * kStencil[p] * kStencil[q];
        (p - q == 1 ? a.first : a.second)[row + p] += value;
      }
    }
  }
  return a;
}

// Solves A x = b by LDL' (no pivoting: A is symmetric positive definite).
std::vector<double> SolvePentadiagonal(const Pentadiagonal& a, std::vector<double> b) {
  const std::size_t m = b.size();
  std::vector<double> d(m), l1(m, 0.0), l2(m, 0.0);  // L[i][i-1], L[i][i-2]
  for (std::size_t i = 0; i < m; ++i) {
    if (i >= 2) l2[i] = a.second[i] / d[i - 2];
    if (i >= 1) l1[i] = (a.first[i] - (i >= 2 ? l2[i] * l1[i - 1] * d[i - 2] : 0.0)) / d[i - 1];
    d[i] = a.diagonal[i] - (i >= 1 ? l1[i] * l1[i] * d[i - 1] : 0.0) - (i >= 2 ? l2[i] * l2[i] * d[i - 2] : 0.0);
  }
  for (std::size_t i = 0; i < m; ++i) {  // L z = b
    if (i >= 1) b[i] -= l1[i] * b[i - 1];
    if (i >= 2) b[i] -= l2[i] * b[i - 2];
  }
  for (std::size_t i = 0; i < m; ++i) b[i] /= d[i];  // D y = z
  for (std::size_t k = m; k-- > 0;) {                  // L' x = y
    if (k + 1 < m) b[k] -= l1[k + 1] * b[k + 1];
    if (k + 2 < m) b[k] -= l2[k + 2] * b[k + 2];
  }
  return b;
}

void ClipAndNormalise(std::vector<double>& values) {
  for (double& value : values) value = std::max(value, 0.0);
  const double sum = std::accumulate(values.begin(), values.end(), 0.0);
  for (double& value : values) value /= sum;
}

}  // namespace

std::vector<double> CurvatureSmooth(const std::vector<double>& e, double strength) {
  std::vector<double> smoothed = e;
  if (strength > 0.0 && e.size() >= 3) {
    std::vector<double> weights(e.size());
    for (std::size_t i = 0; i < e.size(); ++i) weights[i] = 1.0 / std::max(e[i], kWeightFloor);
    std::vector<double> right(e.size());
    for (std::size_t i = 0; i < e.size(); ++i) right[i] = weights[i] * e[i];
    smoothed = SolvePentadiagonal(CurvatureSystem(weights, strength), std::move(right));
  }
  ClipAndNormalise(smoothed);
  return smoothed;
}

double SquaredCurvature(const std::vector<double>& g) {
  double sum = 0.0;
  for (std::size_t i = 0; i + 2 < g.size(); ++i) {
    const double second = g[i] - 2.0 * g[i + 1] + g[i + 2];
    sum += second * second;
  }
  return sum;
}

}  // namespace deniable
