#include "core/numeric/levels/levels_privacy.h"

#include <algorithm>
#include <cmath>

namespace deniable {
namespace {

// Where a level's answers can lie, as the ends that bound a linear function.
std::vector<double> LevelEnds(const LevelPartition& partition, int level) {
  std::vector<double> ends;
  for (const NormalisedSpan& span : partition.LevelSpans(level)) {
    ends.push_back(span.low);
    ends.push_back(span.high);
  }
  return ends;
}

double WorstLogRatio(const LhpChannel& channel, int t, const std::vector<double>& ends_t, int u,
                     const std::vector<double>& ends_u) {
  double worst = 0.0;
  for (int d = 0; d < channel.levels(); ++d) {
    for (int bit : {+1, -1}) {
      double most = 0.0;
      double least = 1.0;
      for (double v : ends_t) most = std::max(most, channel.ReportProbability(v, t, d, bit));
      for (double v : ends_u) least = std::min(least, channel.ReportProbability(v, u, d, bit));
      worst = std::max(worst, std::log(most / least));
    }
  }
  return worst;
}

}  // namespace

LevelsPrivacy ExactLevelsPrivacy(const LevelPartition& partition, const LhpChannel& channel) {
  const int k = partition.levels();
  std::vector<std::vector<double>> ends;
  for (int t = 0; t < k; ++t) ends.push_back(LevelEnds(partition, t));
  LevelsPrivacy privacy;
  privacy.pair.assign(k, std::vector<double>(k, 0.0));
  privacy.claimed.assign(k, std::vector<double>(k, 0.0));
  for (int t = 0; t < k; ++t) {
    for (int u = 0; u < k; ++u) {
      privacy.pair[t][u] = WorstLogRatio(channel, t, ends[t], u, ends[u]);
      privacy.claimed[t][u] = std::max(partition.level_epsilons()[t], partition.level_epsilons()[u]);
      privacy.epsilon = std::max(privacy.epsilon, privacy.pair[t][u]);
    }
  }
  return privacy;
}

}  // namespace deniable
