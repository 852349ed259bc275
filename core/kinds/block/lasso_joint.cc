#include "core/kinds/block/lasso_joint.h"

#include <algorithm>
#include <cmath>

#include "core/kinds/block/calibration_units.h"
#include "core/kinds/block/pmoue.h"

namespace deniable {
namespace {

constexpr int kMaxSweeps = 200;
constexpr double kLambdaShare = 0.01;

// The row of each attribute's option within C (offsets of the blocks).
std::vector<std::size_t> BlockOffsets(const std::vector<int>& sizes) {
  std::vector<std::size_t> offsets;
  std::size_t offset = 0;
  for (int size : sizes) {
    offsets.push_back(offset);
    offset += static_cast<std::size_t>(size);
  }
  return offsets;
}

// The t rows a joint cell's column of M has a 1 in.
std::vector<std::size_t> CellRows(std::size_t cell, const std::vector<int>& sizes,
                                  const std::vector<std::size_t>& offsets) {
  std::vector<std::size_t> rows(sizes.size());
  for (std::size_t i = sizes.size(); i-- > 0;) {
    rows[i] = offsets[i] + cell % static_cast<std::size_t>(sizes[i]);
    cell /= static_cast<std::size_t>(sizes[i]);
  }
  return rows;
}

}  // namespace

JointCounts EstimateJointByLasso(const BlockAggregate& aggregate, std::uint32_t set, double epsilon_per_attribute) {
  JointCounts joint;
  joint.attributes = Members(set);
  for (int a : joint.attributes) joint.sizes.push_back(aggregate.sizes()[static_cast<std::size_t>(a)]);
  const BlockGroup group = PooledGroup(aggregate, set);
  joint.n = group.s;
  std::size_t cells = 1;
  for (int size : joint.sizes) cells *= static_cast<std::size_t>(size);
  joint.count.assign(cells, 0.0);
  if (group.s == 0) return joint;
  // C: each attribute's bit counts (the others "any"), debiased with q(e).
  const double q = OueQ(epsilon_per_attribute), s = static_cast<double>(group.s);
  const std::vector<std::size_t> offsets = BlockOffsets(joint.sizes);
  std::vector<double> residual;  // C - M P, with P = 0 at the start
  for (std::size_t i = 0; i < joint.sizes.size(); ++i) {
    std::vector<int> digits(joint.sizes.begin(), joint.sizes.end());  // all "any"
    for (int b = 0; b < joint.sizes[i]; ++b) {
      digits[i] = b;
      const double bit_count = static_cast<double>(group.cooccurrences[CooccurrenceIndex(joint.sizes, digits)]);
      residual.push_back((bit_count - s * q) / (0.5 - q));
    }
  }
  std::vector<std::vector<std::size_t>> rows;
  double largest_correlation = 0.0;  // ||M^T C||_inf
  for (std::size_t cell = 0; cell < cells; ++cell) {
    rows.push_back(CellRows(cell, joint.sizes, offsets));
    double correlation = 0.0;
    for (std::size_t row : rows.back()) correlation += residual[row];
    largest_correlation = std::max(largest_correlation, std::abs(correlation));
  }
  const double lambda = kLambdaShare * largest_correlation;
  const double k = static_cast<double>(joint.sizes.size());  // each column's squared norm
  for (int sweep = 0; sweep < kMaxSweeps; ++sweep) {
    double largest_move = 0.0;
    for (std::size_t cell = 0; cell < cells; ++cell) {
      // Minimise over p >= 0: sum_rows (r_i + p_old - p)^2 + lambda p.
      double correlation = 0.0;
      for (std::size_t row : rows[cell]) correlation += residual[row];
      const double old = joint.count[cell];
      const double updated = std::max(0.0, old + (correlation - lambda / 2.0) / k);
      if (updated == old) continue;
      for (std::size_t row : rows[cell]) residual[row] -= updated - old;
      joint.count[cell] = updated;
      largest_move = std::max(largest_move, std::abs(updated - old));
    }
    if (largest_move <= 1e-9 * s) break;
  }
  // Clip (already non-negative) and normalise to the group's n.
  double total = 0.0;
  for (double c : joint.count) total += c;
  for (double& c : joint.count) c = total > 0.0 ? c * s / total : s / static_cast<double>(cells);
  return joint;
}

}  // namespace deniable
