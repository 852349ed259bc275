#include "core/kinds/block/privacy_audit.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

#include "core/kinds/block/pmoue.h"

namespace deniable {
namespace {

// log P(report | answers) for a report given as one bit per option of every attribute, in order.
double LogLikelihood(const std::vector<int>& sizes, const std::vector<int>& answers, const std::vector<double>& shares,
                     std::uint32_t report) {
  double log_probability = 0.0;
  int bit = 0;
  for (std::size_t a = 0; a < sizes.size(); ++a) {
    const double q = OueQ(shares[a]);
    for (int b = 0; b < sizes[a]; ++b, ++bit) {
      const double one = b == answers[a] ? 0.5 : q;
      log_probability += std::log((report >> bit) & 1u ? one : 1.0 - one);
    }
  }
  return log_probability;
}

std::vector<std::vector<int>> AllAnswers(const std::vector<int>& sizes) {
  std::vector<std::vector<int>> all = {{}};
  for (int size : sizes) {
    std::vector<std::vector<int>> longer;
    for (const auto& prefix : all) {
      for (int b = 0; b < size; ++b) {
        longer.push_back(prefix);
        longer.back().push_back(b);
      }
    }
    all = std::move(longer);
  }
  return all;
}

}  // namespace

double WorstLogLikelihoodRatio(const std::vector<int>& sizes,
                               const std::function<std::vector<double>(const std::vector<int>&)>& split) {
  int bits = 0;
  for (int size : sizes) bits += size;
  const auto answers = AllAnswers(sizes);
  std::vector<std::vector<double>> shares;
  for (const auto& x : answers) shares.push_back(split(x));
  double worst = 0.0;
  for (std::uint32_t report = 0; report < (std::uint32_t{1} << bits); ++report) {
    double highest = -std::numeric_limits<double>::infinity(), lowest = std::numeric_limits<double>::infinity();
    for (std::size_t i = 0; i < answers.size(); ++i) {
      const double log_probability = LogLikelihood(sizes, answers[i], shares[i], report);
      highest = std::max(highest, log_probability);
      lowest = std::min(lowest, log_probability);
    }
    worst = std::max(worst, highest - lowest);
  }
  return worst;
}

}  // namespace deniable
