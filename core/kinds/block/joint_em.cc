#include "core/kinds/block/joint_em.h"

#include <algorithm>
#include <cmath>

#include "core/kinds/block/calibration_units.h"

namespace deniable {
namespace {

constexpr double kTolerance = 1e-7;
constexpr double kConverged = 1e-10;  // with a target: a step this small is the maximum of the likelihood

// v <- (M_1 x ... x M_k) v with M_a = K_a = q_a 11^T + (1/2 - q_a) I on the
// axes outside `ones`, and M_a = 11^T - I (a miss, whatever the q) on those in it.
void ApplyAxes(const std::vector<int>& sizes, const std::vector<double>& q, std::uint32_t ones, std::vector<double>& v) {
  std::size_t inner = v.size();
  for (std::size_t a = 0; a < sizes.size(); ++a) {
    const std::size_t l = static_cast<std::size_t>(sizes[a]);
    inner /= l;
    const std::size_t outer = v.size() / (inner * l);
    const bool miss = (ones >> a) & 1u;
    const double all = miss ? 1.0 : q[a], own = miss ? -1.0 : 0.5 - q[a];
    for (std::size_t o = 0; o < outer; ++o) {
      for (std::size_t i = 0; i < inner; ++i) {
        double sum = 0.0;
        for (std::size_t b = 0; b < l; ++b) sum += v[(o * l + b) * inner + i];
        for (std::size_t b = 0; b < l; ++b) {
          double& x = v[(o * l + b) * inner + i];
          x = all * sum + own * x;
        }
      }
    }
  }
}

struct Unit {
  double s;
  QMoments q;
  std::vector<double> counts;  // X(w), every attribute named
};

// v <- K v with the respondents' q's varying: a respondent with answers x has
// its bits for w all 1 with probability E[prod_a K_a(w_a, x_a)], and with
// K_a = Kbar_a + (q_a - qbar_a) [w_a != x_a] that is
// sum_V mu_V prod_{a in V} [w_a != x_a] prod_{a not in V} Kbar_a(w_a, x_a).
// Symmetric, so also its transpose. Equal splits: mu_V = 0 for |V| >= 2.
void ApplyKernel(const std::vector<int>& sizes, const Unit& unit, std::vector<double>& v) {
  std::vector<double> result(v.size(), 0.0), term;
  for (std::uint32_t ones = 0; ones < static_cast<std::uint32_t>(unit.q.mu.size()); ++ones) {
    const double mu = unit.q.mu[ones];
    if (mu == 0.0) continue;
    term = v;
    ApplyAxes(sizes, unit.q.mean, ones, term);
    for (std::size_t i = 0; i < v.size(); ++i) result[i] += mu * term[i];
  }
  v = std::move(result);
}

// Sum_w of the kernel's column: E[prod_a (1/2 + (l_a - 1) q_a)], the same for every x.
double ColumnSum(const std::vector<int>& sizes, const QMoments& q) {
  double total = 0.0;
  for (std::uint32_t ones = 0; ones < static_cast<std::uint32_t>(q.mu.size()); ++ones) {
    double term = q.mu[ones];
    for (std::size_t a = 0; a < sizes.size(); ++a) {
      term *= (ones >> a) & 1u ? sizes[a] - 1.0 : 0.5 + (sizes[a] - 1.0) * q.mean[a];
    }
    total += term;
  }
  return total;
}

// The unit's q's are the calibration's (a held unit of tiny groups borrows them from a precise group: its own
// few row sums would put q anywhere).
Unit ReadUnit(const CalibrationUnit& group, const std::vector<int>& sizes, std::size_t cells) {
  Unit unit{static_cast<double>(group.s), group.q, std::vector<double>(cells)};
  std::vector<int> digits(sizes.size());
  for (std::size_t cell = 0; cell < cells; ++cell) {
    std::size_t rest = cell;
    for (std::size_t a = sizes.size(); a-- > 0;) {
      digits[a] = static_cast<int>(rest % static_cast<std::size_t>(sizes[a]));
      rest /= static_cast<std::size_t>(sizes[a]);
    }
    unit.counts[cell] = static_cast<double>(group.cooccurrences[CooccurrenceIndex(sizes, digits)]);
  }
  return unit;
}

// One EM (Richardson-Lucy) step from p, and the Poisson pseudo-log-likelihood of p (up to a constant).
struct Step {
  std::vector<double> next;
  double log_likelihood = 0.0;
};

Step EmStep(const std::vector<int>& sizes, const std::vector<Unit>& units, double normaliser, const std::vector<double>& p) {
  const std::size_t cells = p.size();
  Step step{std::vector<double>(cells, 0.0), 0.0};
  std::vector<double> expected(cells);
  for (const Unit& unit : units) {
    expected = p;
    ApplyKernel(sizes, unit, expected);
    for (std::size_t w = 0; w < cells; ++w) {
      const double lambda = unit.s * expected[w];
      if (lambda > 0.0) step.log_likelihood += unit.counts[w] * std::log(lambda) - lambda;
      expected[w] = lambda > 0.0 ? unit.counts[w] / lambda * unit.s : 0.0;
    }
    ApplyKernel(sizes, unit, expected);
    for (std::size_t x = 0; x < cells; ++x) step.next[x] += expected[x];
  }
  double total = 0.0;
  for (std::size_t x = 0; x < cells; ++x) total += step.next[x] *= p[x] / normaliser;
  for (double& x : step.next) x /= total;
  return step;
}

// sum_c (p_c - f_c)^2 / v_c over the cells with a variance.
double Discrepancy(const std::vector<double>& p, const EmTarget& target) {
  double sum = 0.0;
  for (std::size_t c = 0; c < p.size(); ++c) {
    if (target.variance[c] > 0.0) sum += (p[c] - target.frequency[c]) * (p[c] - target.frequency[c]) / target.variance[c];
  }
  return sum;
}

// SQUAREM's extrapolation (scheme S3) from p0 through p1 = EM(p0) and p2 = EM(p1); steps back towards p2
// (alpha = -1) until every cell is non-negative.
std::vector<double> Extrapolate(const std::vector<double>& p0, const std::vector<double>& p1, const std::vector<double>& p2) {
  double rr = 0.0, vv = 0.0;
  for (std::size_t c = 0; c < p0.size(); ++c) {
    const double r = p1[c] - p0[c], v = p2[c] - 2.0 * p1[c] + p0[c];
    rr += r * r;
    vv += v * v;
  }
  if (!(vv > 0.0)) return p2;
  double alpha = std::min(-1.0, -std::sqrt(rr / vv));
  std::vector<double> p(p0.size());
  for (int attempt = 0; attempt < 60 && alpha < -1.0; ++attempt, alpha = (alpha - 1.0) / 2.0) {
    bool valid = true;
    for (std::size_t c = 0; c < p0.size() && valid; ++c) {
      const double r = p1[c] - p0[c], v = p2[c] - 2.0 * p1[c] + p0[c];
      p[c] = p0[c] - 2.0 * alpha * r + alpha * alpha * v;
      valid = p[c] >= 0.0 && std::isfinite(p[c]);
    }
    if (valid) return p;
  }
  return p2;
}

}  // namespace

EmJoint JointByEm(const BlockAggregate& aggregate, std::uint32_t set, const std::vector<std::vector<double>>& margins,
                  const EmTarget* target, int max_rounds) {
  std::vector<int> sizes;
  for (int a : Members(set)) sizes.push_back(aggregate.sizes()[static_cast<std::size_t>(a)]);
  std::size_t cells = 1;
  for (int size : sizes) cells *= static_cast<std::size_t>(size);
  std::vector<Unit> units;
  double normaliser = 0.0;  // sum_units s prod_a (1/2 + (l_a - 1) q_a): each x's total expected count per unit P(x)
  for (const CalibrationUnit& group : CalibrationUnits(aggregate, set)) {
    units.push_back(ReadUnit(group, sizes, cells));
    normaliser += units.back().s * ColumnSum(sizes, units.back().q);
  }
  // Start: the product of the margins, floored so that every cell can grow.
  EmJoint result{std::vector<double>(cells, 1.0), 0, 0.0, 0.0};
  std::vector<double>& p = result.table;
  for (std::size_t cell = 0; cell < cells; ++cell) {
    std::size_t rest = cell;
    for (std::size_t a = sizes.size(); a-- > 0;) {
      p[cell] *= std::max(margins[a][rest % static_cast<std::size_t>(sizes[a])], 1e-6);
      rest /= static_cast<std::size_t>(sizes[a]);
    }
  }
  if (target != nullptr) {
    for (double v : target->variance) result.target += v > 0.0 ? target->level : 0.0;
    result.discrepancy = Discrepancy(p, *target);
  }
  if (units.empty() || normaliser <= 0.0) return result;
  auto done = [&](const std::vector<double>& before) {
    if (target != nullptr) return (result.discrepancy = Discrepancy(p, *target)) <= result.target && target->level > 0.0;
    double largest_move = 0.0;
    for (std::size_t x = 0; x < cells; ++x) largest_move = std::max(largest_move, std::abs(p[x] - before[x]));
    return largest_move <= kTolerance;
  };
  // Plain EM first, as without a target: its early rounds are the smoothing that keeps thin tables from fitting
  // noise (docs/blocks-results.md).
  const int plain = target == nullptr ? max_rounds : std::min(max_rounds, kMaxEmRounds);
  while (result.rounds < plain) {
    const std::vector<double> before = p;
    p = EmStep(sizes, units, normaliser, p).next;
    ++result.rounds;
    if (target == nullptr ? done(before) : false) break;
  }
  if (target == nullptr || done(p)) return result;
  while (result.rounds + 3 <= max_rounds) {
    const Step first = EmStep(sizes, units, normaliser, p);
    const Step second = EmStep(sizes, units, normaliser, first.next);
    const Step landed = EmStep(sizes, units, normaliser, Extrapolate(p, first.next, second.next));
    result.rounds += 3;
    const std::vector<double> before = p;
    // Keep the extrapolation only if it did not lower the likelihood (SQUAREM's safeguard); else two plain steps.
    p = landed.log_likelihood >= second.log_likelihood ? landed.next : EmStep(sizes, units, normaliser, second.next).next;
    if (done(before)) break;
    double largest_move = 0.0;
    for (std::size_t x = 0; x < cells; ++x) largest_move = std::max(largest_move, std::abs(p[x] - before[x]));
    if (largest_move <= kConverged) break;
  }
  return result;
}

}  // namespace deniable
