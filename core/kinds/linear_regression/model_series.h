// Which rounds a model's results list. A model trained one round per report
// (batch 1) has as many rounds as reports: at 100,000 rounds the whole series
// made a 147 MB document that any anonymous reader could ask for. By default
// the results list at most kChartRounds rounds, evenly spaced (every k-th,
// always with the first and the last), enough for the convergence chart;
// "<id>.rounds=all" pages through the full series, kRoundsPage rounds a page
// from "<id>.rounds_from" (a round number, default 1).
#pragma once

#include <cstddef>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/common/result.h"

namespace deniable {

inline constexpr std::size_t kChartRounds = 200;
inline constexpr std::size_t kRoundsPage = 1000;

struct SeriesRequest {
  bool all = false;         // a page of every round, not the chart's sample
  long long from = 1;       // with `all`: the page's first round
};

// options["rounds"]: absent or "chart", or "all"; options["rounds_from"]: a round number >= 1 (only with "all").
Result<SeriesRequest> ReadSeriesRequest(const nlohmann::json& options);

// The public option names and their canonical form (the server's cache key).
std::vector<std::string> ModelEstimateOptionNames();
Result<nlohmann::json> CanonicalModelEstimateOptions(const nlohmann::json& options);

// The indices (into rounds 1..completed, 0-based) to list, and what they are.
struct SeriesSelection {
  std::vector<std::size_t> steps;
  nlohmann::json shown;  // {"rounds": "chart"|"all", "every", "from", "to", "of", "next_from"}
};
SeriesSelection SelectRounds(std::size_t completed, const SeriesRequest& request);

}  // namespace deniable
