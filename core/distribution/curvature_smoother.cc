#include "core/distribution/curvature_smoother.h"

#include <Eigen/Core>
#include <Eigen/OrderingMethods>
#include <Eigen/SparseCholesky>
#include <Eigen/SparseCore>
#include <algorithm>
#include <cassert>
#include <numeric>

namespace deniable {
namespace {

constexpr double kWeightFloor = 1e-12;

// The linear algebra of one smoothing step, kept from call to call.
//
// Decomposition: Eigen::SimplicialLDLT (sparse LDL', no square roots) in the
// natural order. The system diag(weights) + strength D'D (D the (m - 2) x m
// second-difference operator) is symmetric positive definite (weights > 0,
// D'D positive semi-definite), so no pivoting is needed; it is pentadiagonal,
// and a band factors without fill-in when left in its order, so L keeps two
// sub-diagonals and factorisation and solve are O(m). A fill-reducing
// ordering (the default AMD) cannot reduce the fill of a band and would only
// add its own cost. Only the upper triangle is stored: with the natural order
// and column-major storage Eigen then factors the matrix where it lies (given
// the lower triangle it would first copy it transposed).
//
// Why kept: EM smooths on every iteration with the same number of cells, and
// the band's pattern, hence the symbolic analysis and all the storage,
// depends only on m. Building the matrix and the solver afresh on every call
// made a call at m = 1024 cost 3 to 20 times the former hand-written band
// solver (about 28 us), mostly allocator page faults from ~100 KB freed and
// taken again; kept by the caller's CurvatureSmoother, it costs about 1.15
// times as much (33 us against 28 us at m = 1024, 3.2 us against 2.7 us at m = 100).

// Writes diag(weights) + strength D'D into `system` (pattern from the
// CurvatureSmoother's constructor). Each row of D adds strength d d' (d the stencil [1, -2, 1])
// to a 3 x 3 block; entries are summed in the order of the formula: weight
// first, then the rows of D in turn. The values are addressed in the
// compressed storage directly (column j holds rows max(j - 2, 0) to j, in
// order): coeffRef's search per entry cost as much as the factorisation.
void FillCurvatureSystem(const std::vector<double>& weights, double strength, Eigen::SparseMatrix<double>& system) {
  const Eigen::Index m = static_cast<Eigen::Index>(weights.size());
  double* const values = system.valuePtr();
  const int* const column_start = system.outerIndexPtr();
  const auto entry = [&](Eigen::Index i, Eigen::Index j) -> double& {
    return values[column_start[j] + (i - std::max<Eigen::Index>(j - 2, 0))];
  };
  for (Eigen::Index j = 0; j < m; ++j) {
    for (Eigen::Index i = std::max<Eigen::Index>(j - 2, 0); i < j; ++i) entry(i, j) = 0.0;
    entry(j, j) = weights[j];
  }
  constexpr double kStencil[3] = {1.0, -2.0, 1.0};
  for (Eigen::Index row = 0; row + 2 < m; ++row) {
    for (int p = 0; p < 3; ++p) {
      for (int q = 0; q <= p; ++q) entry(row + q, row + p) += strength * kStencil[p] * kStencil[q];
    }
  }
}

void ClipAndNormalise(std::vector<double>& values) {
  for (double& value : values) value = std::max(value, 0.0);
  const double sum = std::accumulate(values.begin(), values.end(), 0.0);
  for (double& value : values) value /= sum;
}

}  // namespace

// The band's storage and symbolic analysis, kept between calls.
struct CurvatureSmoother::Band {
  Eigen::SparseMatrix<double> system;  // upper triangle: A[j-2][j], A[j-1][j], A[j][j] in column j
  Eigen::SimplicialLDLT<Eigen::SparseMatrix<double>, Eigen::Upper, Eigen::NaturalOrdering<int>> ldlt;
  Eigen::VectorXd solution;
};

CurvatureSmoother::CurvatureSmoother(std::size_t cells) : band_(std::make_unique<Band>()) {
  const auto m = static_cast<Eigen::Index>(cells);
  std::vector<Eigen::Triplet<double>> pattern;
  pattern.reserve(3 * cells);
  for (Eigen::Index j = 0; j < m; ++j) {
    for (Eigen::Index i = std::max<Eigen::Index>(j - 2, 0); i <= j; ++i) pattern.emplace_back(i, j, 0.0);
  }
  band_->system.resize(m, m);
  band_->system.setFromTriplets(pattern.begin(), pattern.end());
  band_->ldlt.analyzePattern(band_->system);
}

CurvatureSmoother::~CurvatureSmoother() = default;
CurvatureSmoother::CurvatureSmoother(CurvatureSmoother&&) noexcept = default;
CurvatureSmoother& CurvatureSmoother::operator=(CurvatureSmoother&&) noexcept = default;

std::vector<double> CurvatureSmoother::Smooth(const std::vector<double>& e, double strength) {
  std::vector<double> smoothed = e;
  if (strength > 0.0 && e.size() >= 3) {
    const Eigen::Index m = static_cast<Eigen::Index>(e.size());
    assert(m == band_->system.rows());
    std::vector<double> weights(e.size());
    for (std::size_t i = 0; i < e.size(); ++i) weights[i] = 1.0 / std::max(e[i], kWeightFloor);
    Eigen::VectorXd right(m);
    for (Eigen::Index i = 0; i < m; ++i) right[i] = weights[i] * e[i];
    FillCurvatureSystem(weights, strength, band_->system);
    band_->ldlt.factorize(band_->system);
    // Only a zero pivot fails, which a positive-definite system cannot give
    // for finite e; should it happen, the step leaves e unsmoothed rather
    // than return non-finite values.
    if (band_->ldlt.info() == Eigen::Success) {
      band_->solution = band_->ldlt.solve(right);
      smoothed.assign(band_->solution.data(), band_->solution.data() + m);
    }
  }
  ClipAndNormalise(smoothed);
  return smoothed;
}

std::vector<double> CurvatureSmooth(const std::vector<double>& e, double strength) {
  CurvatureSmoother smoother(e.size());
  return smoother.Smooth(e, strength);
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
