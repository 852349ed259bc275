// NumericHistogram: the mergeable sufficient statistic of a numeric question.
//
// The server never keeps reported values for estimation: it counts them in a
// fixed number of equal cells over the mechanism's output range (default
// 1024 cells: for a range [a, b] the resolution is (b - a)/1024, finer than
// any estimation grid used afterwards, m <= 1000). Every distribution
// estimator (EM/EMS, KDE + SQP) reads only these counts, so its cost does not
// grow with the number of reports. Values outside the range (Laplace's tails)
// are clamped into the end cells; the transition matrix models exactly that
// (transition_matrix.h).
//
// Alongside the counts it keeps n (reports), the number of values (n times
// values per report), and the sum and sum of squares of the raw, unclamped
// values: the unbiased mean estimators (Duchi, Piecewise, Hybrid, Laplace)
// need exactly those and nothing else.
//
// Not thread-safe, like SurveyAggregate; independent histograms combine with Merge.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/numeric/numeric_mechanism.h"
#include "core/common/result.h"

namespace deniable {

inline constexpr int kDefaultHistogramCells = 1024;
inline constexpr int kMaxHistogramCells = 65536;

class NumericHistogram {
 public:
  // range must be finite with low < high; cells in 1..kMaxHistogramCells.
  static Result<NumericHistogram> Create(NumericRange range, int cells = kDefaultHistogramCells);
  // Cells over the mechanism's output range.
  static Result<NumericHistogram> ForMechanism(const NumericMechanism& mechanism, int cells = kDefaultHistogramCells);

  // Counts one report. Every value must be finite and there must be at least
  // one; otherwise nothing is counted and the error names the value.
  Status Add(const std::vector<double>& values);
  // Adds the other histogram's counts. Ranges and cell counts must be
  // identical; a failed merge changes nothing.
  Status Merge(const NumericHistogram& other);

  NumericRange range() const { return range_; }
  int cells() const { return static_cast<int>(counts_.size()); }
  double cell_width() const { return range_.width() / cells(); }
  // The lower edge of cell j; CellEdge(cells()) is range().high exactly.
  double CellEdge(int j) const;
  // The cell a value is counted in: clamped to the end cells outside the range.
  int CellOf(double value) const;

  const std::vector<std::int64_t>& counts() const { return counts_; }
  std::vector<double> counts_as_doubles() const;
  std::int64_t reports() const { return reports_; }
  std::int64_t values() const { return values_; }
  double sum() const { return sum_; }
  double sum_of_squares() const { return sum_of_squares_; }

  // Storage form:
  // {"format":"deniable.numeric_histogram/v1","low":a,"high":b,"cells":1024,
  //  "reports":n,"values":v,"sum":s,"sum_of_squares":s2,"counts":[...]}
  nlohmann::json ToJson() const;
  // Strict: every field required and checked (counts non-negative, summing to
  // "values"; values >= reports; unknown fields rejected).
  static Result<NumericHistogram> FromJson(const nlohmann::json& json);

  bool operator==(const NumericHistogram& other) const;

 private:
  NumericHistogram(NumericRange range, int cells) : range_(range), counts_(static_cast<std::size_t>(cells), 0) {}

  NumericRange range_;
  std::vector<std::int64_t> counts_;
  std::int64_t reports_ = 0;
  std::int64_t values_ = 0;
  double sum_ = 0.0;
  double sum_of_squares_ = 0.0;
};

// Checks that a range is finite with low < high; `what` names it in the message:
// "output range must be finite with low < high, but is [3, 1]".
Status CheckNumericRange(NumericRange range, const std::string& what);

}  // namespace deniable
