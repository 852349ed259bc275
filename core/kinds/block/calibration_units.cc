#include "core/kinds/block/calibration_units.h"

#include <algorithm>
#include <cmath>

namespace deniable {
namespace {

void AddInto(BlockGroup& into, const BlockGroup& group) {
  if (into.cooccurrences.empty()) {
    into = group;
    return;
  }
  into.s += group.s;
  for (std::size_t i = 0; i < group.cooccurrences.size(); ++i) into.cooccurrences[i] += group.cooccurrences[i];
  for (std::size_t i = 0; i < group.row_sum_moments.size(); ++i) into.row_sum_moments[i] += group.row_sum_moments[i];
}

std::vector<int> SizesOf(const BlockAggregate& aggregate, std::uint32_t set) {
  std::vector<int> sizes;
  for (int a : Members(set)) sizes.push_back(aggregate.sizes()[static_cast<std::size_t>(a)]);
  return sizes;
}

// Whether s respondents' row sums pin their q's down (header): judged at the
// pool's q's, which are stable, so the decision does not hinge on the noise
// it guards against.
bool Precise(std::int64_t s, const std::vector<double>& pool_q, const std::vector<int>& sizes) {
  if (s < kCalibrationMinGroup) return false;
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    const double l = sizes[i], q = pool_q[i];
    const double row_sum_variance = 0.25 + (l - 1.0) * q * (1.0 - q);
    const double q_error = std::sqrt(row_sum_variance / static_cast<double>(s)) / (l - 1.0);
    if (q_error > kMaxRelativeQError * (0.5 - q)) return false;
  }
  return true;
}

CalibrationUnit OwnUnit(const BlockGroup& group, const std::vector<int>& sizes) {
  CalibrationUnit unit;
  static_cast<BlockGroup&>(unit) = group;
  unit.q = UnitQMoments(group, sizes);
  return unit;
}

}  // namespace

std::vector<CalibrationUnit> CalibrationUnits(const BlockAggregate& aggregate, std::uint32_t set) {
  const std::vector<int> sizes = SizesOf(aggregate, set);
  const BlockGroup pool = PooledGroup(aggregate, set);
  std::vector<CalibrationUnit> units;
  if (pool.s == 0) return units;
  const QMoments pool_q = UnitQMoments(pool, sizes);
  BlockGroup small;
  for (int m = 1; m <= static_cast<int>(aggregate.sizes().size()); ++m) {
    const BlockGroup* group = aggregate.Group(set, m);
    if (group == nullptr || group->s == 0) continue;
    if (Precise(group->s, pool_q.mean, sizes)) {
      units.push_back(OwnUnit(*group, sizes));
    } else {
      AddInto(small, *group);
    }
  }
  if (small.s == 0) return units;
  if (Precise(small.s, pool_q.mean, sizes)) {
    units.push_back(OwnUnit(small, sizes));
  } else {
    CalibrationUnit unit;
    static_cast<BlockGroup&>(unit) = small;
    unit.q = pool_q;
    unit.held = true;
    unit.borrowed = small.s < pool.s;
    units.push_back(std::move(unit));
  }
  return units;
}

BlockGroup PooledGroup(const BlockAggregate& aggregate, std::uint32_t set) {
  BlockGroup pooled;
  for (int m = 1; m <= static_cast<int>(aggregate.sizes().size()); ++m) {
    if (const BlockGroup* group = aggregate.Group(set, m)) AddInto(pooled, *group);
  }
  return pooled;
}

QMoments UnitQMoments(const BlockGroup& unit, const std::vector<int>& sizes) {
  const std::size_t k = sizes.size();
  const double s = static_cast<double>(unit.s);
  QMoments moments;
  std::vector<double> mean_row_sum;
  for (std::size_t i = 0; i < k; ++i) {
    mean_row_sum.push_back(unit.row_sum_moments[std::size_t{1} << i] / s);
    moments.mean.push_back(std::clamp((mean_row_sum[i] - 0.5) / (sizes[i] - 1.0), 0.0, 0.5 - 1e-6));
  }
  for (std::uint32_t u = 0; u < (std::uint32_t{1} << k); ++u) {
    if (SetSize(u) < 2) {
      moments.mu.push_back(u == 0 ? 1.0 : 0.0);
      continue;
    }
    double central = 0.0;  // E[prod_{i in u} (r_i - rbar_i)] by expanding over the raw moments
    for (std::uint32_t t = u;; t = (t - 1) & u) {
      double term = unit.row_sum_moments[t] / s;
      for (std::size_t i = 0; i < k; ++i) {
        if (((u & ~t) >> i) & 1) term *= -mean_row_sum[i];
      }
      central += term;
      if (t == 0) break;
    }
    for (std::size_t i = 0; i < k; ++i) {
      if ((u >> i) & 1) central /= sizes[i] - 1.0;
    }
    moments.mu.push_back(central);
  }
  return moments;
}

std::size_t CooccurrenceIndex(const std::vector<int>& sizes, const std::vector<int>& digits) {
  std::size_t index = 0;
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    index = index * static_cast<std::size_t>(sizes[i] + 1) + static_cast<std::size_t>(digits[i]);
  }
  return index;
}

}  // namespace deniable
