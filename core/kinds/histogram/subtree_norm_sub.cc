#include "core/kinds/histogram/subtree_norm_sub.h"

#include <algorithm>

#include "core/frequency/norm_sub.h"

namespace deniable {
namespace {

struct Cells {
  const std::vector<double>& prefix;  // sums of the input cells before each index
  std::vector<double>& out;
};

double Sum(const Cells& cells, std::size_t first, std::size_t end) { return cells.prefix[end] - cells.prefix[first]; }

// Cells [first, first + span) clipped to the real ones, whose consistent total is `value`.
void Split(Cells& cells, std::size_t first, std::size_t span, double value) {
  const std::size_t real = cells.out.size();
  if (span == 1) {
    cells.out[first] = value;
    return;
  }
  const std::size_t half = span / 2, middle = first + half;
  if (middle >= real) {  // the right half is padding: known empty
    Split(cells, first, half, value);
    return;
  }
  const std::size_t right_end = std::min(first + span, real);
  const std::vector<double> halves = NormSub({Sum(cells, first, middle), Sum(cells, middle, right_end)}, value);
  Split(cells, first, half, halves[0]);
  Split(cells, middle, half, halves[1]);
}

}  // namespace

std::vector<double> SubtreeNormSub(const std::vector<double>& cells, double total) {
  if (cells.empty()) return {};
  std::vector<double> prefix(1, 0.0);
  for (double cell : cells) prefix.push_back(prefix.back() + cell);
  std::size_t span = 1;
  while (span < cells.size()) span *= 2;
  std::vector<double> out(cells.size(), 0.0);
  Cells state{prefix, out};
  Split(state, 0, span, std::max(total, 0.0));
  return out;
}

}  // namespace deniable
