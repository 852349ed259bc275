// The "histograms" of a histogram question: the data consumers' requests,
// each {"name": ..., "bins": K} (K equal bins) or {"name": ..., "edges": [a,
// e1, ..., b]}, read at the format boundary into exact boundaries
// (fine_partition.h). Validation names the field: "histograms[1].edges[2]:
// 40 is not above the previous edge 50".
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/common/result.h"
#include "core/kinds/histogram/fine_partition.h"

namespace deniable {

inline constexpr int kMaxConsumers = 16;
inline constexpr std::size_t kMaxConsumerNameLength = 64;

struct ConsumerRequest {
  std::string name;
  std::vector<RangeFraction> boundaries;  // 0, ..., 1: the bins' edges as fractions of the range
  // The request as it was given, for the canonical definition: {"name", "bins"} or {"name", "edges"}.
  nlohmann::json definition;
};

// `where` names the question ("questions[0]"); the list must hold 1 to
// kMaxConsumers requests with distinct names.
Result<std::vector<ConsumerRequest>> ParseConsumerRequests(const nlohmann::json& question, NumericRange range,
                                                           const std::string& where);

}  // namespace deniable
