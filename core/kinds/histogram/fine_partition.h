// The common refinement of several consumers' histograms (seed 000's CHP,
// digest section 3.3): every requested bin boundary merged into one sorted set
// of fine cells, each consumer's bin a run of consecutive fine cells.
//
// Exact boundaries (digest section 6.2): a boundary is a fraction of the
// range, k/K for K equal bins and, for explicit edges, the simplest fraction
// within 1e-12 of (e - a)/(b - a) (continued fractions, denominators up to
// 10^9: a typed 2.5 in [0, 100] is 1/40). Merging compares fractions exactly,
// so 3-, 5- and 7-fold histograms give 13 cells, never slivers where two
// floating-point boundaries differ in the last bit.
//
// Cells are half-open, [w_h, w_{h+1}), with the range's high end b in the
// last cell; the same rule places a value in a fine cell and in a consumer's
// bin, so both always agree.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/common/result.h"
#include "core/numeric/numeric_mechanism.h"

namespace deniable {

inline constexpr int kMaxFineCells = 4096;

// A boundary as a fraction of the range, 0 <= numerator <= denominator, reduced.
struct RangeFraction {
  std::int64_t numerator = 0;
  std::int64_t denominator = 1;
  friend bool operator==(const RangeFraction& a, const RangeFraction& b) {
    return a.numerator == b.numerator && a.denominator == b.denominator;
  }
  friend bool operator<(const RangeFraction& a, const RangeFraction& b) {
    // Denominators are at most 10^9 and numerators at most their denominators: the products fit in 63 bits.
    return a.numerator * b.denominator < b.numerator * a.denominator;
  }
};

// 0, 1/K, ..., 1: K equal bins (K >= 1).
std::vector<RangeFraction> EqualBinBoundaries(int bins);

// The fraction of [a, b] at `edge` (inside the range); an error when no
// fraction with denominator up to 10^9 lies within 1e-12 of it.
Result<RangeFraction> BoundaryFraction(double edge, NumericRange range);

class FinePartition {
 public:
  // Every consumer's boundaries (each from 0 to 1, strictly increasing) merged;
  // an error when the merged partition has more than kMaxFineCells cells.
  static Result<FinePartition> Merge(NumericRange range, const std::vector<std::vector<RangeFraction>>& consumers);

  NumericRange range() const { return range_; }
  int cells() const { return static_cast<int>(boundaries_.size()) - 1; }
  const std::vector<RangeFraction>& boundaries() const { return boundaries_; }
  // The value of boundary h (0 <= h <= cells()).
  double BoundaryValue(int h) const { return values_[static_cast<std::size_t>(h)]; }
  // The fine cell of x, clamped into the range: [w_h, w_h+1), b in the last cell.
  int CellOf(double x) const;
  // For a consumer's boundaries (a subset of this partition's): the first fine
  // cell of each of its bins, and one past the last (size bins + 1).
  std::vector<int> BinStarts(const std::vector<RangeFraction>& consumer) const;

 private:
  FinePartition(NumericRange range, std::vector<RangeFraction> boundaries);

  NumericRange range_;
  std::vector<RangeFraction> boundaries_;
  std::vector<double> values_;
};

}  // namespace deniable
