// TransitionMatrix: how a numeric mechanism moves mass from input cells to the
// output cells of a NumericHistogram.
//
//   T[j][i] = P(one reported value lands in output cell j | x uniform in input cell i)
//
// with m equal input cells over the mechanism's input range and the
// histogram's equal output cells over its output range. Rows index outputs,
// columns inputs (digest P6), and every column sums to 1, so T maps input cell
// probabilities f to output cell probabilities T f.
//
// Build: the x-average over input cell i of OutputProbability(x, y_j, y_j+1)
// by Gauss-Legendre quadrature with `quadrature_nodes` nodes per input cell
// (each cell is first split at `input_breakpoints` lying inside it: x values
// where OutputProbability has a kink for every output, such as RVNS's a + d
// and b - d). Accuracy: x -> OutputProbability(x, cell) is piecewise smooth.
// Where the density is continuous in y (RVNS) it is C^1 and 8 nodes are exact
// to round-off for piecewise-polynomial cases (the tests' tent toy: 2e-16);
// where the density jumps in y (Square Wave, Piecewise) it has kinks and the
// G-node rule errs by O(jump * w^2 / G^2) on the few entries per column whose
// cell edge lies within an input cell of a jump (w = input cell width). The
// tests' wave toy: 8.5e-5 on entries of 0.03 at m = 50. For Square Wave
// (m = 100, 1024 cells, n = 50,000) the EMS estimate with 8 nodes differed
// from the one with a 64-node matrix by 3e-5 (eps = 1) and 2e-4 (eps = 4) in
// L1, against a statistical W1 error of 0.016 to 0.056: negligible.
//
// Clamping: the histogram counts values outside the output range in its end
// cells. The quadrature covers only the range, so a column's raw sum falls
// short by the mass outside it (nonzero only for unbounded mechanisms such as
// Laplace, whose output range leaves a negligible tail) plus quadrature
// round-off. That deficit is added to the two end cells in proportion to their
// own mass, which is exact for exponential tails (Laplace: tail mass beyond an
// end = end cell mass / (e^(cell width/scale) - 1) at both ends), and the
// column is then normalised to sum exactly 1.
//
// Storage: dense and column-major (each input column contiguous), with each
// column's nonzero band [band_begin, band_end), so T f and T^T r touch only
// nonzero entries (Duchi's columns have 2 of them; RVNS's and Square Wave's are full).
// Cost: O(m * cells * nodes) OutputProbability calls to build, O(m * cells) memory.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "core/numeric/numeric_mechanism.h"
#include "core/common/result.h"

namespace deniable {

inline constexpr int kMaxTransitionInputCells = 4096;
inline constexpr int kMaxTransitionOutputCells = 65536;
inline constexpr int kDefaultQuadratureNodes = 8;
inline constexpr int kMaxQuadratureNodes = 64;

struct TransitionOptions {
  int quadrature_nodes = kDefaultQuadratureNodes;  // Gauss-Legendre nodes per input (sub)cell, 1..64
  std::vector<double> input_breakpoints;           // kinks in x common to all outputs (optional)
};

// P(one value in [y0, y1) | input x), as NumericMechanism::OutputProbability.
using OutputProbabilityFunction = std::function<double(double x, double y0, double y1)>;

class TransitionMatrix {
 public:
  // For a mechanism: input cells over its input range, output cells over its output range.
  static Result<TransitionMatrix> ForMechanism(const NumericMechanism& mechanism, int input_cells, int output_cells,
                                               const TransitionOptions& options = {});
  // The same for any output-probability function.
  static Result<TransitionMatrix> Integrate(const OutputProbabilityFunction& probability, NumericRange input,
                                            int input_cells, NumericRange output, int output_cells,
                                            const TransitionOptions& options = {});
  // From explicit non-negative columns (column-major, input_cells x output_cells
  // entries); each column is normalised to sum 1 (all-zero columns are an error).
  static Result<TransitionMatrix> FromColumns(NumericRange input, int input_cells, NumericRange output,
                                              int output_cells, std::vector<double> column_major);

  NumericRange input_range() const { return input_; }
  NumericRange output_range() const { return output_; }
  int input_cells() const { return input_cells_; }
  int output_cells() const { return output_cells_; }

  double at(int output_cell, int input_cell) const {
    return entries_[static_cast<std::size_t>(input_cell) * output_cells_ + output_cell];
  }
  // Column i, output_cells() entries.
  const double* column(int input_cell) const {
    return entries_.data() + static_cast<std::size_t>(input_cell) * output_cells_;
  }
  // Column i is zero outside [band_begin(i), band_end(i)).
  int band_begin(int input_cell) const { return bands_[static_cast<std::size_t>(input_cell)].begin; }
  int band_end(int input_cell) const { return bands_[static_cast<std::size_t>(input_cell)].end; }
  // The entries inside the columns' bands: what one T f or T^T r visits (the
  // unit of WorkBudget, work_budget.h).
  std::int64_t band_entries() const {
    std::int64_t entries = 0;
    for (const Band& band : bands_) entries += band.end - band.begin;
    return entries;
  }

  // T f: output cell probabilities (or expected counts, if f holds counts).
  // input has input_cells() entries.
  std::vector<double> Apply(const std::vector<double>& input) const;
  // T^T r into `result` (resized to input_cells()); output has output_cells() entries.
  void ApplyTransposed(const std::vector<double>& output, std::vector<double>& result) const;

 private:
  struct Band {
    int begin;
    int end;
  };
  TransitionMatrix(NumericRange input, int input_cells, NumericRange output, int output_cells,
                   std::vector<double> entries);
  Status NormaliseColumnsAndFindBands();

  NumericRange input_;
  NumericRange output_;
  int input_cells_;
  int output_cells_;
  std::vector<double> entries_;
  std::vector<Band> bands_;
};

// Gauss-Legendre nodes and weights on [-1, 1] (weights sum to 2), n in 1..64.
struct GaussLegendreRule {
  std::vector<double> nodes;
  std::vector<double> weights;
};
GaussLegendreRule GaussLegendre(int n);

}  // namespace deniable
