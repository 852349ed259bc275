#include "core/kinds/block/calibration_units.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <utility>

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

// The q's a held unit borrows: for each of its groups, those of the precise
// group of the nearest answered count m (the split's spread, hence q, moves
// with m: at e = 2 under Dirichlet(1) splits q is 0.162 at m = 2, 0.178 at
// m = 3, 0.195 at m = 8 and 9), weighted by the group's size. The raw row-sum
// moments of a mixture are the weighted sums of its parts', so a virtual
// group of s respondents holding those sums gives the mixture's mean q's and
// joint central moments. With no precise group, the held unit is everyone.
BlockGroup Lender(const std::vector<std::pair<int, const BlockGroup*>>& precise,
                  const std::vector<std::pair<int, const BlockGroup*>>& small, const BlockGroup& held) {
  if (precise.empty()) return held;
  BlockGroup lender;
  lender.s = held.s;
  lender.row_sum_moments.assign(held.row_sum_moments.size(), 0.0);
  for (const auto& [m, group] : small) {
    const BlockGroup* nearest = nullptr;
    int distance = 0;
    for (const auto& [precise_m, candidate] : precise) {
      const int d = std::abs(precise_m - m);
      if (nearest == nullptr || d < distance || (d == distance && candidate->s > nearest->s)) {
        nearest = candidate;
        distance = d;
      }
    }
    const double weight = static_cast<double>(group->s) / static_cast<double>(nearest->s);
    for (std::size_t i = 0; i < lender.row_sum_moments.size(); ++i) {
      lender.row_sum_moments[i] += weight * nearest->row_sum_moments[i];
    }
  }
  return lender;
}

}  // namespace

std::vector<CalibrationUnit> CalibrationUnits(const BlockAggregate& aggregate, std::uint32_t set) {
  const std::vector<int> sizes = SizesOf(aggregate, set);
  const BlockGroup pool = PooledGroup(aggregate, set);
  std::vector<CalibrationUnit> units;
  if (pool.s == 0) return units;
  const QMoments pool_q = UnitQMoments(pool, sizes);
  std::vector<std::pair<int, const BlockGroup*>> precise, small_groups;
  BlockGroup small;
  for (int m = 1; m <= static_cast<int>(aggregate.sizes().size()); ++m) {
    const BlockGroup* group = aggregate.Group(set, m);
    if (group == nullptr || group->s == 0) continue;
    if (Precise(group->s, pool_q.mean, sizes)) {
      units.push_back(OwnUnit(*group, sizes));
      precise.emplace_back(m, group);
    } else {
      AddInto(small, *group);
      small_groups.emplace_back(m, group);
    }
  }
  if (small.s == 0) return units;
  if (Precise(small.s, pool_q.mean, sizes)) {
    units.push_back(OwnUnit(small, sizes));
  } else {
    CalibrationUnit unit;
    static_cast<BlockGroup&>(unit) = small;
    unit.q = UnitQMoments(Lender(precise, small_groups, small), sizes);
    unit.held = true;
    unit.borrowed = !precise.empty();
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
