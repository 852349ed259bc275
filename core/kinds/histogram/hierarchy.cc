#include "core/kinds/histogram/hierarchy.h"

#include <cmath>
#include <limits>


namespace deniable {
namespace {

constexpr double kUnknownVariance = std::numeric_limits<double>::infinity();

struct Fitted {
  std::vector<std::vector<double>> value;     // per level 0..h, per node: the subtree's best estimate
  std::vector<std::vector<double>> variance;  // its variance (infinite: nothing known)
};

// Bottom up: each node's own estimate combined with the sum of its children's.
Fitted FitUpwards(const TreeShape& shape, const std::vector<std::vector<double>>& estimates,
                  const std::vector<double>& variances, int real_leaves) {
  Fitted fitted;
  fitted.value.resize(static_cast<std::size_t>(shape.height) + 1);
  fitted.variance.resize(static_cast<std::size_t>(shape.height) + 1);
  for (int level = shape.height; level >= 0; --level) {
    const auto l = static_cast<std::size_t>(level);
    const int nodes = shape.NodesAt(level);
    fitted.value[l].assign(static_cast<std::size_t>(nodes), 0.0);
    fitted.variance[l].assign(static_cast<std::size_t>(nodes), kUnknownVariance);
    for (int v = 0; v < nodes; ++v) {
      const auto k = static_cast<std::size_t>(v);
      if (level == shape.height && v >= real_leaves) {  // padding: empty for sure
        fitted.variance[l][k] = 0.0;
        continue;
      }
      double own = 0.0, own_precision = 0.0;
      if (level >= 1 && std::isfinite(variances[l - 1])) {
        own = estimates[l - 1][k];
        own_precision = 1.0 / variances[l - 1];
      }
      double children = 0.0, children_variance = level == shape.height ? kUnknownVariance : 0.0;
      for (int c = 0; level < shape.height && c < shape.fanout; ++c) {
        children += fitted.value[l + 1][k * static_cast<std::size_t>(shape.fanout) + static_cast<std::size_t>(c)];
        children_variance += fitted.variance[l + 1][k * static_cast<std::size_t>(shape.fanout) + static_cast<std::size_t>(c)];
      }
      if (children_variance == 0.0) {  // the children are known exactly
        fitted.value[l][k] = children;
        fitted.variance[l][k] = 0.0;
        continue;
      }
      const double children_precision = std::isfinite(children_variance) ? 1.0 / children_variance : 0.0;
      const double precision = own_precision + children_precision;
      if (precision <= 0.0) continue;
      fitted.value[l][k] = (own * own_precision + children * children_precision) / precision;
      fitted.variance[l][k] = 1.0 / precision;
    }
  }
  return fitted;
}

}  // namespace

int TreeShape::NodesAt(int level) const {
  int nodes = 1;
  for (int l = 0; l < level; ++l) nodes *= fanout;
  return nodes;
}

int TreeShape::SpanOf(int level) const { return NodesAt(height - level); }

std::vector<TreeNode> Decompose(const TreeShape& shape, int first, int end) {
  return Decompose(shape, first, end, [](int) { return true; });
}

std::vector<double> LeastSquaresLeaves(const TreeShape& shape, const std::vector<std::vector<double>>& estimates,
                                     const std::vector<double>& variances, int real_leaves) {
  Fitted fitted = FitUpwards(shape, estimates, variances, real_leaves);
  // Top down from the root's known total: each node's children share the
  // difference between it and their sum, in proportion to their variances
  // (equally among unknown ones; known-exact children take none).
  std::vector<double> level_values = {1.0};
  for (int level = 0; level < shape.height; ++level) {
    const auto below = static_cast<std::size_t>(level) + 1;
    std::vector<double> next(fitted.value[below].size(), 0.0);
    for (std::size_t v = 0; v < level_values.size(); ++v) {
      double sum = 0.0, total_variance = 0.0;
      int unknown = 0;
      for (int c = 0; c < shape.fanout; ++c) {
        const std::size_t child = v * static_cast<std::size_t>(shape.fanout) + static_cast<std::size_t>(c);
        sum += fitted.value[below][child];
        if (std::isfinite(fitted.variance[below][child])) total_variance += fitted.variance[below][child];
        else ++unknown;
      }
      const double gap = level_values[v] - sum;
      for (int c = 0; c < shape.fanout; ++c) {
        const std::size_t child = v * static_cast<std::size_t>(shape.fanout) + static_cast<std::size_t>(c);
        const double variance = fitted.variance[below][child];
        double share = 0.0;
        if (unknown > 0) share = std::isfinite(variance) ? 0.0 : 1.0 / unknown;
        else if (total_variance > 0.0) share = variance / total_variance;
        next[child] = fitted.value[below][child] + share * gap;
      }
    }
    level_values = std::move(next);
  }
  level_values.resize(static_cast<std::size_t>(real_leaves));
  return level_values;
}

}  // namespace deniable
