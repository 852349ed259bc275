#include "core/distribution/transition_matrix.h"

#include <Eigen/Core>
#include <algorithm>
#include <cmath>
#include <cstring>

#include "core/distribution/numeric_histogram.h"
#include "core/common/validation.h"

namespace deniable {
namespace {

constexpr double kPi = 3.14159265358979323846;
// OutputProbability values this far outside [0, 1] are bugs, not round-off.
constexpr double kProbabilitySlack = 1e-9;

using ConstVectorMap = Eigen::Map<const Eigen::VectorXd>;
using VectorMap = Eigen::Map<Eigen::VectorXd>;

// Edge e (0..cells) of `cells` equal cells over `range`; the last edge is exact.
double Edge(NumericRange range, int cells, int e) {
  return e >= cells ? range.high : range.low + range.width() * static_cast<double>(e) / cells;
}

Status ValidateShape(NumericRange input, int input_cells, NumericRange output, int output_cells) {
  DENIABLE_TRY(CheckNumericRange(input, "transition input range"));
  DENIABLE_TRY(CheckNumericRange(output, "transition output range"));
  DENIABLE_TRY(ValidateIntInRange(input_cells, 1, kMaxTransitionInputCells, "transition input cells"));
  DENIABLE_TRY(ValidateIntInRange(output_cells, 1, kMaxTransitionOutputCells, "transition output cells"));
  return OkStatus();
}

// The sub-intervals of [x0, x1] between the breakpoints inside it.
std::vector<double> SplitAt(double x0, double x1, const std::vector<double>& sorted_breakpoints) {
  std::vector<double> pieces{x0};
  for (double point : sorted_breakpoints) {
    if (point > x0 && point < x1) pieces.push_back(point);
  }
  pieces.push_back(x1);
  return pieces;
}

// Adds the average over [x0, x1] of probability(x, output cell j) to column[j], for every j.
Status IntegrateColumn(const OutputProbabilityFunction& probability, double x0, double x1,
                       const std::vector<double>& sorted_breakpoints, const GaussLegendreRule& rule,
                       const std::vector<double>& output_edges, double* column) {
  const auto pieces = SplitAt(x0, x1, sorted_breakpoints);
  const int output_cells = static_cast<int>(output_edges.size()) - 1;
  for (std::size_t p = 0; p + 1 < pieces.size(); ++p) {
    const double half = 0.5 * (pieces[p + 1] - pieces[p]);
    const double middle = 0.5 * (pieces[p + 1] + pieces[p]);
    for (std::size_t k = 0; k < rule.nodes.size(); ++k) {
      const double x = middle + half * rule.nodes[k];
      const double weight = rule.weights[k] * half / (x1 - x0);
      for (int j = 0; j < output_cells; ++j) {
        const double value = probability(x, output_edges[j], output_edges[j + 1]);
        if (!std::isfinite(value) || value < -kProbabilitySlack || value > 1.0 + kProbabilitySlack) {
          return MakeError("output probability must be in [0, 1], but is " + FormatNumber(value) +
                           " for x = " + FormatNumber(x) + " and output cell [" + FormatNumber(output_edges[j]) + ", " +
                           FormatNumber(output_edges[j + 1]) + ")");
        }
        column[j] += weight * std::max(value, 0.0);
      }
    }
  }
  return OkStatus();
}

// Gives the column's missing mass (outside the output range) to its end cells,
// in proportion to their own mass: exact for exponential tails.
void AssignClampedMass(double* column, int output_cells) {
  double sum = 0.0;
  for (int j = 0; j < output_cells; ++j) sum += column[j];
  const double deficit = 1.0 - sum;
  const double first = column[0];
  const double last = column[output_cells - 1];
  if (deficit <= 0.0 || first + last <= 0.0) return;
  if (output_cells == 1) {
    column[0] += deficit;
    return;
  }
  column[0] += deficit * first / (first + last);
  column[output_cells - 1] += deficit * last / (first + last);
}

}  // namespace

GaussLegendreRule GaussLegendre(int n) {
  n = std::clamp(n, 1, kMaxQuadratureNodes);
  GaussLegendreRule rule{std::vector<double>(static_cast<std::size_t>(n)),
                         std::vector<double>(static_cast<std::size_t>(n))};
  // Newton's method on P_n from the Chebyshev-like first guess; symmetric pairs.
  for (int i = 0; i < (n + 1) / 2; ++i) {
    double z = std::cos(kPi * (i + 0.75) / (n + 0.5));
    double derivative = 1.0;
    for (int iteration = 0; iteration < 100; ++iteration) {
      double p1 = 1.0;
      double p2 = 0.0;
      for (int j = 1; j <= n; ++j) {
        const double p3 = p2;
        p2 = p1;
        p1 = ((2.0 * j - 1.0) * z * p2 - (j - 1.0) * p3) / j;
      }
      derivative = n * (z * p1 - p2) / (z * z - 1.0);
      const double previous = z;
      z = previous - p1 / derivative;
      if (std::abs(z - previous) < 1e-16) break;
    }
    const double weight = 2.0 / ((1.0 - z * z) * derivative * derivative);
    rule.nodes[static_cast<std::size_t>(i)] = -z;
    rule.nodes[static_cast<std::size_t>(n - 1 - i)] = z;
    rule.weights[static_cast<std::size_t>(i)] = weight;
    rule.weights[static_cast<std::size_t>(n - 1 - i)] = weight;
  }
  return rule;
}

TransitionMatrix::TransitionMatrix(NumericRange input, int input_cells, NumericRange output, int output_cells,
                                   std::vector<double> entries)
    : input_(input),
      output_(output),
      input_cells_(input_cells),
      output_cells_(output_cells),
      entries_(std::move(entries)),
      bands_(static_cast<std::size_t>(input_cells), Band{0, output_cells}) {}

Result<TransitionMatrix> TransitionMatrix::ForMechanism(const NumericMechanism& mechanism, int input_cells,
                                                        int output_cells, const TransitionOptions& options) {
  return Integrate([&mechanism](double x, double y0, double y1) { return mechanism.OutputProbability(x, y0, y1); },
                   mechanism.input_range(), input_cells, mechanism.output_range(), output_cells, options);
}

Result<TransitionMatrix> TransitionMatrix::Integrate(const OutputProbabilityFunction& probability, NumericRange input,
                                                     int input_cells, NumericRange output, int output_cells,
                                                     const TransitionOptions& options) {
  DENIABLE_TRY(ValidateShape(input, input_cells, output, output_cells));
  DENIABLE_TRY(ValidateIntInRange(options.quadrature_nodes, 1, kMaxQuadratureNodes, "quadrature nodes"));
  std::vector<double> breakpoints = options.input_breakpoints;
  for (double point : breakpoints) {
    if (!std::isfinite(point)) return MakeError("input breakpoints must be finite numbers");
  }
  std::sort(breakpoints.begin(), breakpoints.end());

  std::vector<double> output_edges(static_cast<std::size_t>(output_cells) + 1);
  for (int e = 0; e <= output_cells; ++e) output_edges[static_cast<std::size_t>(e)] = Edge(output, output_cells, e);
  const auto rule = GaussLegendre(options.quadrature_nodes);

  std::vector<double> entries(static_cast<std::size_t>(input_cells) * output_cells, 0.0);
  for (int i = 0; i < input_cells; ++i) {
    double* column = entries.data() + static_cast<std::size_t>(i) * output_cells;
    DENIABLE_TRY(IntegrateColumn(probability, Edge(input, input_cells, i), Edge(input, input_cells, i + 1), breakpoints,
                                 rule, output_edges, column));
    AssignClampedMass(column, output_cells);
  }
  TransitionMatrix matrix(input, input_cells, output, output_cells, std::move(entries));
  DENIABLE_TRY(matrix.NormaliseColumnsAndFindBands());
  return matrix;
}

Result<TransitionMatrix> TransitionMatrix::FromColumns(NumericRange input, int input_cells, NumericRange output,
                                                       int output_cells, std::vector<double> column_major) {
  DENIABLE_TRY(ValidateShape(input, input_cells, output, output_cells));
  if (column_major.size() != static_cast<std::size_t>(input_cells) * output_cells) {
    return MakeError("transition columns must have input cells x output cells = " +
                     std::to_string(static_cast<std::size_t>(input_cells) * output_cells) + " entries, but have " +
                     std::to_string(column_major.size()));
  }
  for (double value : column_major) {
    if (!std::isfinite(value) || value < 0.0) {
      return MakeError("transition entries must be finite and non-negative, but one is " + FormatNumber(value));
    }
  }
  TransitionMatrix matrix(input, input_cells, output, output_cells, std::move(column_major));
  DENIABLE_TRY(matrix.NormaliseColumnsAndFindBands());
  return matrix;
}

Status TransitionMatrix::NormaliseColumnsAndFindBands() {
  for (int i = 0; i < input_cells_; ++i) {
    double* column = entries_.data() + static_cast<std::size_t>(i) * output_cells_;
    double sum = 0.0;
    for (int j = 0; j < output_cells_; ++j) sum += column[j];
    if (!(sum > 0.0)) {
      return MakeError("transition column " + std::to_string(i) + " (input cell [" +
                       FormatNumber(Edge(input_, input_cells_, i)) + ", " +
                       FormatNumber(Edge(input_, input_cells_, i + 1)) + ")) has no mass in the output range");
    }
    int begin = output_cells_;
    int end = 0;
    for (int j = 0; j < output_cells_; ++j) {
      column[j] /= sum;
      if (column[j] > 0.0) {
        begin = std::min(begin, j);
        end = j + 1;
      }
    }
    bands_[static_cast<std::size_t>(i)] = Band{begin, end};
  }
  return OkStatus();
}

std::vector<double> TransitionMatrix::Apply(const std::vector<double>& input) const {
  // Half of a results document's time is here and in ApplyTransposed (perf,
  // bench/numeric_results_bench). Four columns at a time where their bands
  // overlap: each output entry is loaded and stored once per four columns
  // instead of once per column. Every entry still gets the same additions in
  // the same order (column 0 first), so the result is the same to the bit;
  // entries outside a column's band are zeros, which add nothing (w x 0 = +0).
  std::vector<double> result(static_cast<std::size_t>(output_cells_), 0.0);
  double* out = result.data();
  int i = 0;
  while (i < input_cells_) {
    if (i + 4 <= input_cells_) {
      int begin = output_cells_;
      int end = 0;
      int widths = 0;
      for (int k = i; k < i + 4; ++k) {
        const Band band = bands_[static_cast<std::size_t>(k)];
        begin = std::min(begin, band.begin);
        end = std::max(end, band.end);
        widths += band.end - band.begin;
      }
      if (end - begin <= widths) {
        const double* c0 = column(i);
        const double* c1 = column(i + 1);
        const double* c2 = column(i + 2);
        const double* c3 = column(i + 3);
        const double w0 = input[static_cast<std::size_t>(i)];
        const double w1 = input[static_cast<std::size_t>(i) + 1];
        const double w2 = input[static_cast<std::size_t>(i) + 2];
        const double w3 = input[static_cast<std::size_t>(i) + 3];
        for (int j = begin; j < end; ++j) out[j] = (((out[j] + w0 * c0[j]) + w1 * c1[j]) + w2 * c2[j]) + w3 * c3[j];
        i += 4;
        continue;
      }
    }
    const double weight = input[static_cast<std::size_t>(i)];
    const Band band = bands_[static_cast<std::size_t>(i)];
    const double* c = column(i);
    if (weight != 0.0) {
      for (int j = band.begin; j < band.end; ++j) out[j] = out[j] + weight * c[j];
    }
    ++i;
  }
  return result;
}

namespace {

// Two doubles added lane by lane (GCC and Clang vector extension: SSE2
// natively, two scalar lanes where there is no SIMD). IEEE per lane, so every
// platform gets the same bits.
typedef double DoublePair __attribute__((vector_size(16)));

DoublePair LoadPair(const double* at) {
  DoublePair pair;
  std::memcpy(&pair, at, sizeof pair);
  return pair;
}

}  // namespace

void TransitionMatrix::ApplyTransposed(const std::vector<double>& output, std::vector<double>& result) const {
  // Four columns' dot products at once where their bands overlap, each in two
  // lanes (even and odd entries from the band's start), summed lane 0 + lane
  // 1, then the odd entry left over: `output` is read once per four columns,
  // and the order of the additions is fixed (the same on every platform).
  // Entries outside a column's band are zeros, which add nothing.
  result.assign(static_cast<std::size_t>(input_cells_), 0.0);
  const double* v = output.data();
  int i = 0;
  while (i < input_cells_) {
    int begin = bands_[static_cast<std::size_t>(i)].begin;
    int end = bands_[static_cast<std::size_t>(i)].end;
    int columns = 1;
    if (i + 4 <= input_cells_) {
      int union_begin = output_cells_;
      int union_end = 0;
      int widths = 0;
      for (int k = i; k < i + 4; ++k) {
        const Band band = bands_[static_cast<std::size_t>(k)];
        union_begin = std::min(union_begin, band.begin);
        union_end = std::max(union_end, band.end);
        widths += band.end - band.begin;
      }
      if (union_end - union_begin <= widths) {
        begin = union_begin;
        end = union_end;
        columns = 4;
      }
    }
    const double* c[4] = {column(i), column(i), column(i), column(i)};
    for (int k = 1; k < columns; ++k) c[k] = column(i + k);
    DoublePair sums[4] = {};
    int j = begin;
    if (columns == 4) {
      for (; j + 2 <= end; j += 2) {
        const DoublePair x = LoadPair(v + j);
        for (int k = 0; k < 4; ++k) sums[k] += LoadPair(c[k] + j) * x;
      }
    } else {
      for (; j + 2 <= end; j += 2) sums[0] += LoadPair(c[0] + j) * LoadPair(v + j);
    }
    for (int k = 0; k < columns; ++k) {
      double sum = sums[k][0] + sums[k][1];
      if (j < end) sum += c[k][j] * v[j];
      result[static_cast<std::size_t>(i + k)] = sum;
    }
    i += columns;
  }
}

}  // namespace deniable
