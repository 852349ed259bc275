// The paper's server side (seed 003, Algorithms 4 and 5): privacy level
// conversion (PLC) and hierarchical aggregation (HierA) of the mean, on the
// counts of +1 and -1 bits per reported level (a sufficient statistic: PLC on
// counts draws two binomials per conversion, so the cost is O(k^2), whatever n).
//
// With reuse mu = 1 (the default) there is no conversion and, unclamped, the
// estimate is the mean of the calibrated bits C_d * bit: unbiased, and by
// Rao-Blackwell never worse than mu > 1, whose converted copies are the same
// bits plus independent noise (digest §6.9). mu > 1 and clamping are offered
// to reproduce the paper.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "core/common/random_source.h"
#include "core/common/result.h"

namespace deniable {

// Reports per reported level (0 = most lenient), by bit.
struct LevelBitCounts {
  std::vector<std::int64_t> plus;
  std::vector<std::int64_t> minus;
  std::int64_t total() const;
};

struct HierAOptions {
  int reuse = 1;       // mu: each record counts mu times; 1 = no conversion
  bool clamp = false;  // the paper's clamp of debiased counts to [0, N_j]
};

struct HierAColumn {
  double size = 0.0;  // N_j: records in the column (with copies)
  double sum = 0.0;   // S_j: debiased n1* - n2*
  bool clamped = false;
};

struct HierAEstimate {
  double mean = 0.0;  // on the normalised scale [-1, 1]
  // Var(mean) estimated from the reports (unclamped estimator; digest §3.6
  // with the sample variance of the calibrated bits).
  double variance = 0.0;
  std::vector<HierAColumn> columns;
  bool clamped_any = false;
};

// keep[d]: the bit's keep probability at level d (p_0 >= p_1 >= ... > 1/2).
// Conversions draw from `random` (results use a generator seeded from the
// counts, so the same reports give the same document).
Result<HierAEstimate> EstimateHierA(const LevelBitCounts& counts, const std::vector<double>& keep,
                                    const HierAOptions& options, RandomSource& random);

// PLC of one group's counts from keep probability p_from to p_to <= p_from:
// each bit kept with q = (p_from + p_to - 1)/(2 p_from - 1), else flipped.
// Returns {plus, minus} of the converted group.
std::pair<std::int64_t, std::int64_t> ConvertLevel(std::int64_t plus, std::int64_t minus, double p_from,
                                                   double p_to, RandomSource& random);

// The flip probability of PLC, (p_from - p_to)/(2 p_from - 1).
double ConversionFlipProbability(double p_from, double p_to);

}  // namespace deniable
