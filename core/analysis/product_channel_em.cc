#include "core/analysis/product_channel_em.h"

#include <algorithm>
#include <cmath>

#include "core/survey/question_kind.h"

namespace deniable {
namespace {

constexpr double kTolerance = 1e-9;
// Pattern likelihoods kept for the whole fit up to this many numbers (32 MB); past it they are rebuilt each round.
constexpr std::size_t kMaxCachedLikelihoods = std::size_t{1} << 22;

// The patterns' likelihood over the cells, rebuilt or cached.
class PatternTable {
 public:
  explicit PatternTable(const ProductChannelPatterns& patterns) : patterns_(patterns) {
    if (patterns.patterns() * patterns.cells() > kMaxCachedLikelihoods) return;
    for (std::size_t g = 0; g < patterns.patterns(); ++g) cache_.push_back(patterns.PatternLikelihood(g));
  }
  std::vector<double> operator()(std::size_t g) const {
    return cache_.empty() ? patterns_.PatternLikelihood(g) : cache_[g];
  }

 private:
  const ProductChannelPatterns& patterns_;
  std::vector<std::vector<double>> cache_;
};

// One EM step from `table`; its log-likelihood (at `table`) in `log_likelihood`.
std::vector<double> EmStep(const ProductChannelPatterns& patterns, const PatternTable& likelihood,
                           const std::vector<double>& table, double& log_likelihood) {
  std::vector<double> next(table.size(), 0.0);
  log_likelihood = 0.0;
  for (std::size_t g = 0; g < patterns.patterns(); ++g) {
    const std::vector<double> l = likelihood(g);
    double total = 0.0;
    for (std::size_t x = 0; x < table.size(); ++x) total += l[x] * table[x];
    if (!(total > 0.0)) continue;  // impossible under `table`: only after an extrapolation
    const double weight = static_cast<double>(patterns.count(g)) / total;
    log_likelihood += static_cast<double>(patterns.count(g)) * std::log(total);
    for (std::size_t x = 0; x < table.size(); ++x) next[x] += weight * l[x] * table[x];
  }
  const double n = static_cast<double>(patterns.n());
  for (double& p : next) p /= n;
  return next;
}

double LogLikelihood(const ProductChannelPatterns& patterns, const PatternTable& likelihood,
                     const std::vector<double>& table) {
  double log_likelihood = 0.0;
  for (std::size_t g = 0; g < patterns.patterns(); ++g) {
    const std::vector<double> l = likelihood(g);
    double total = 0.0;
    for (std::size_t x = 0; x < table.size(); ++x) total += l[x] * table[x];
    if (!(total > 0.0)) return -INFINITY;
    log_likelihood += static_cast<double>(patterns.count(g)) * std::log(total);
  }
  return log_likelihood;
}

double SquaredNorm(const std::vector<double>& v) {
  double sum = 0.0;
  for (double x : v) sum += x * x;
  return sum;
}

double LargestChange(const std::vector<double>& a, const std::vector<double>& b) {
  double largest = 0.0;
  for (std::size_t i = 0; i < a.size(); ++i) largest = std::max(largest, std::abs(a[i] - b[i]));
  return largest;
}

// Floored just above 0 (EM cannot revive a cell at 0) and renormalised: the extrapolation can leave the simplex.
std::vector<double> OntoSimplex(std::vector<double> table) {
  double sum = 0.0;
  for (double& p : table) sum += (p = std::max(p, 1e-12));
  for (double& p : table) p /= sum;
  return table;
}

}  // namespace

ProductChannelPatterns::ProductChannelPatterns(std::vector<std::size_t> sizes)
    : sizes_(std::move(sizes)), dictionary_(sizes_.size()), vectors_(sizes_.size()) {}

std::size_t ProductChannelPatterns::cells() const {
  std::size_t cells = 1;
  for (std::size_t size : sizes_) cells *= size;
  return cells;
}

void ProductChannelPatterns::Add(const std::vector<std::vector<double>>& likelihoods) {
  std::vector<std::size_t> key(sizes_.size());
  for (std::size_t j = 0; j < sizes_.size(); ++j) {
    std::vector<double> scaled = likelihoods[j];
    const double largest = *std::max_element(scaled.begin(), scaled.end());
    if (largest > 0.0) {
      for (double& l : scaled) l /= largest;
    }
    auto found = dictionary_[j].find(scaled);
    if (found == dictionary_[j].end()) {
      found = dictionary_[j].emplace(scaled, vectors_[j].size()).first;
      vectors_[j].push_back(std::move(scaled));
    }
    key[j] = found->second;
  }
  auto found = pattern_index_.find(key);
  if (found == pattern_index_.end()) {
    found = pattern_index_.emplace(key, patterns_.size()).first;
    patterns_.push_back(key);
    counts_.push_back(0);
  }
  ++counts_[found->second];
  ++n_;
}

std::vector<double> ProductChannelPatterns::PatternLikelihood(std::size_t g) const {
  std::vector<double> product{1.0};
  for (std::size_t j = 0; j < sizes_.size(); ++j) {
    const std::vector<double>& l = vectors_[j][patterns_[g][j]];
    std::vector<double> next;
    next.reserve(product.size() * l.size());
    for (double a : product) {
      for (double b : l) next.push_back(a * b);
    }
    product = std::move(next);
  }
  return product;
}

Result<EmJointFit> FitProductChannelEm(const ProductChannelPatterns& patterns, std::vector<double> start,
                                       const std::function<bool()>& cancelled, int max_rounds) {
  EmJointFit fit;
  fit.table = std::move(start);
  if (patterns.n() == 0) return fit;
  const PatternTable likelihood(patterns);
  double current = 0.0;
  while (fit.rounds < max_rounds) {
    if (cancelled && cancelled()) return MakeError(kEstimationCancelled, ErrorCode::kCancelled);
    const std::vector<double> p0 = fit.table;
    const std::vector<double> p1 = EmStep(patterns, likelihood, p0, current);
    double ignored = 0.0;
    const std::vector<double> p2 = EmStep(patterns, likelihood, p1, ignored);
    fit.rounds += 2;
    std::vector<double> r(p0.size()), v(p0.size());
    for (std::size_t i = 0; i < p0.size(); ++i) {
      r[i] = p1[i] - p0[i];
      v[i] = p2[i] - p1[i] - r[i];
    }
    std::vector<double> next = p2;
    if (SquaredNorm(v) > 0.0) {
      const double alpha = std::min(-1.0, -std::sqrt(SquaredNorm(r) / SquaredNorm(v)));
      std::vector<double> jump(p0.size());
      for (std::size_t i = 0; i < p0.size(); ++i) jump[i] = p0[i] - 2.0 * alpha * r[i] + alpha * alpha * v[i];
      jump = OntoSimplex(std::move(jump));
      double at_jump = 0.0;
      std::vector<double> settled = EmStep(patterns, likelihood, jump, at_jump);  // an EM step keeps it stable
      ++fit.rounds;
      if (std::isfinite(at_jump) && at_jump >= current) next = std::move(settled);
    }
    const double change = LargestChange(next, p0);
    fit.table = std::move(next);
    if (change <= kTolerance) {
      fit.converged = true;
      break;
    }
  }
  fit.log_likelihood = LogLikelihood(patterns, likelihood, fit.table);
  return fit;
}

}  // namespace deniable
