#include "core/kinds/block/joint_estimator.h"

#include <algorithm>
#include <cmath>

#include "core/kinds/block/block_marginals.h"
#include "core/kinds/block/calibration_units.h"

namespace deniable {
namespace {

using LocalSet = std::uint32_t;  // bit i: the i-th attribute of the estimated set

int Size(LocalSet set) { return SetSize(set); }

// One calibration unit's view of the estimated set's k attributes.
class UnitJoint {
 public:
  UnitJoint(const BlockGroup& unit, const QMoments& moments, std::vector<int> sizes)
      : unit_(unit), sizes_(std::move(sizes)) {
    q_ = moments.mean;
    mu_ = moments.mu;
    for (double q : q_) gap_.push_back(0.5 - q);
    for (LocalSet u = 0; u < static_cast<LocalSet>(mu_.size()); ++u) {
      double scale = 1.0;
      for (std::size_t i = 0; i < sizes_.size(); ++i) {
        if ((u >> i) & 1) scale *= gap_[i];
      }
      kappa_.push_back(mu_[u] / scale);
    }
  }

  // J for every subset of the set, smallest first; returns J of the whole set.
  const std::vector<double>& Solve() {
    const std::size_t k = sizes_.size();
    const LocalSet all = (LocalSet{1} << k) - 1;
    joint_.assign(all + 1, {});
    joint_[0] = {static_cast<double>(unit_.s)};
    for (int size = 1; size <= static_cast<int>(k); ++size) {
      for (LocalSet v = 1; v <= all; ++v) {
        if (Size(v) == size) joint_[v] = SolveSet(v);
      }
    }
    return joint_[all];
  }

  // The variance of each cell of the whole set's J (after Solve).
  std::vector<double> Variance() const {
    const std::size_t k = sizes_.size();
    const LocalSet all = (LocalSet{1} << k) - 1;
    // Per set of matched attributes t: E[prod Z^2] = prod_{t} E[Z^2 | match] * E[prod_{not t} Z^2 | no match].
    std::vector<double> second_moment(all + 1);
    for (LocalSet t = 0; t <= all; ++t) {
      double moment = MissSecondMoment(all & ~t);
      for (std::size_t i = 0; i < k; ++i) {
        if ((t >> i) & 1) moment *= 0.5 * (q_[i] * q_[i] + (1.0 - q_[i]) * (1.0 - q_[i])) / (gap_[i] * gap_[i]);
      }
      second_moment[t] = moment;
    }
    const double alpha = Beta(all, all);
    std::vector<double> variance(joint_[all].size());
    std::vector<int> digits(k);
    for (std::size_t cell = 0; cell < variance.size(); ++cell) {
      Digits(all, cell, digits);
      double total = 0.0;
      for (LocalSet t = 0; t <= all; ++t) {
        double exact = 0.0;  // respondents matching exactly on t: inclusion-exclusion over its supersets
        for (LocalSet w = t;; w = (w + 1) | t) {
          exact += ((Size(w) - Size(t)) % 2 == 0 ? 1.0 : -1.0) * joint_[w][Index(w, digits)];
          if (w == all) break;
        }
        total += std::max(0.0, exact) * (second_moment[t] - (t == all ? 1.0 : 0.0));
      }
      variance[cell] = std::max(0.0, total) / (alpha * alpha);
    }
    return variance;
  }

 private:
  // E[prod_{i in u} Z_i^2] over respondents matching on none of u: Z_i^2 D_i^2 averages, given q_i, to
  // qbar_i^2 + q_i (1 - 2 qbar_i), so the product's mean holds the q's joint central moments (unequal splits
  // correlate them: ignoring it overstated the variance of triples by 1.6 times).
  double MissSecondMoment(LocalSet u) const {
    double moment = 0.0;
    for (LocalSet v = u;; v = (v - 1) & u) {
      double term = mu_[v];
      for (std::size_t i = 0; i < sizes_.size(); ++i) {
        if (!((u >> i) & 1)) continue;
        term *= (v >> i) & 1 ? 1.0 - 2.0 * q_[i] : q_[i] * (1.0 - q_[i]);
      }
      moment += term;
      if (v == 0) break;
    }
    for (std::size_t i = 0; i < sizes_.size(); ++i) {
      if ((u >> i) & 1) moment /= gap_[i] * gap_[i];
    }
    return moment;
  }

  double Beta(LocalSet w, LocalSet v) const {
    double beta = 0.0;
    for (LocalSet t = w;; t = (t - 1) & w) {
      beta += ((Size(w) - Size(t)) % 2 == 0 ? 1.0 : -1.0) * kappa_[v & ~t];
      if (t == 0) break;
    }
    return beta;
  }

  // The digits of a cell of set v's table (entries of attributes outside v untouched).
  void Digits(LocalSet v, std::size_t cell, std::vector<int>& digits) const {
    for (std::size_t i = sizes_.size(); i-- > 0;) {
      if (!((v >> i) & 1)) continue;
      digits[i] = static_cast<int>(cell % static_cast<std::size_t>(sizes_[i]));
      cell /= static_cast<std::size_t>(sizes_[i]);
    }
  }

  std::size_t Index(LocalSet v, const std::vector<int>& digits) const {
    std::size_t index = 0;
    for (std::size_t i = 0; i < sizes_.size(); ++i) {
      if ((v >> i) & 1) index = index * static_cast<std::size_t>(sizes_[i]) + static_cast<std::size_t>(digits[i]);
    }
    return index;
  }

  std::size_t Cells(LocalSet v) const {
    std::size_t cells = 1;
    for (std::size_t i = 0; i < sizes_.size(); ++i) {
      if ((v >> i) & 1) cells *= static_cast<std::size_t>(sizes_[i]);
    }
    return cells;
  }

  // S_V(w): the product of the Z's summed over the unit, expanded into co-occurrence counts.
  double ProductSum(LocalSet v, const std::vector<int>& digits) const {
    std::vector<int> cooccurrence_digits(sizes_.size());
    double sum = 0.0;
    for (LocalSet t = v;; t = (t - 1) & v) {
      double factor = 1.0;
      for (std::size_t i = 0; i < sizes_.size(); ++i) {
        // Attributes outside v are "any"; inside, named where in t.
        cooccurrence_digits[i] = (t >> i) & 1 ? digits[i] : sizes_[i];
        if (((v & ~t) >> i) & 1) factor *= -q_[i];
      }
      sum += factor * static_cast<double>(unit_.cooccurrences[CooccurrenceIndex(sizes_, cooccurrence_digits)]);
      if (t == 0) break;
    }
    for (std::size_t i = 0; i < sizes_.size(); ++i) {
      if ((v >> i) & 1) sum /= gap_[i];
    }
    return sum;
  }

  std::vector<double> SolveSet(LocalSet v) const {
    std::vector<double> counts(Cells(v));
    std::vector<int> digits(sizes_.size(), 0);
    const double alpha = Beta(v, v);
    for (std::size_t cell = 0; cell < counts.size(); ++cell) {
      Digits(v, cell, digits);
      double value = ProductSum(v, digits);
      for (LocalSet w = (v - 1) & v;; w = (w - 1) & v) {  // proper subsets of v
        value -= Beta(w, v) * joint_[w][Index(w, digits)];
        if (w == 0) break;
      }
      counts[cell] = value / alpha;
    }
    return counts;
  }

  const BlockGroup& unit_;
  std::vector<int> sizes_;
  std::vector<double> q_, gap_, mu_, kappa_;
  std::vector<std::vector<double>> joint_;
};

}  // namespace

JointCounts EstimateJoint(const BlockAggregate& aggregate, std::uint32_t set, IntervalTarget target) {
  JointCounts joint;
  joint.attributes = Members(set);
  for (int a : joint.attributes) joint.sizes.push_back(aggregate.sizes()[static_cast<std::size_t>(a)]);
  std::size_t cells = 1;
  for (int size : joint.sizes) cells *= static_cast<std::size_t>(size);
  joint.count.assign(cells, 0.0);
  joint.variance.assign(cells, 0.0);
  for (const CalibrationUnit& unit : CalibrationUnits(aggregate, set)) {
    UnitJoint estimate(unit, unit.q, joint.sizes);
    const std::vector<double> counts = estimate.Solve();
    const std::vector<double> variance = estimate.Variance();
    const double s = static_cast<double>(unit.s);
    for (std::size_t c = 0; c < cells; ++c) {
      // A held unit (too small to calibrate itself): within [0, s] (calibration_units.h).
      joint.count[c] += unit.held ? std::clamp(counts[c], 0.0, s) : counts[c];
      joint.variance[c] += unit.held ? std::min(variance[c], s * s) : variance[c];
    }
    joint.n += unit.s;
  }
  if (target == IntervalTarget::kPopulation) {
    for (std::size_t c = 0; c < cells; ++c) {
      joint.variance[c] += SamplingVariance(joint.count[c], static_cast<double>(joint.n));
    }
  }
  return joint;
}

}  // namespace deniable
