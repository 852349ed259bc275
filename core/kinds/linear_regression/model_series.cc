#include "core/kinds/linear_regression/model_series.h"

#include <algorithm>
#include <string>

#include "core/common/number_text.h"

namespace deniable {
namespace {

std::string Shown(const nlohmann::json& value) {
  return value.is_string() ? "\"" + value.get<std::string>() + "\"" : value.dump();
}

}  // namespace

Result<SeriesRequest> ReadSeriesRequest(const nlohmann::json& options) {
  SeriesRequest request;
  if (!options.is_object()) return request;
  if (const auto rounds = options.find("rounds"); rounds != options.end() && !rounds->is_null()) {
    if (!rounds->is_string() || (*rounds != "chart" && *rounds != "all")) {
      return MakeError("rounds must be \"chart\" (the default: at most " + std::to_string(kChartRounds) +
                       " rounds, evenly spaced) or \"all\" (every round, " + std::to_string(kRoundsPage) +
                       " a page), but is " + Shown(*rounds));
    }
    request.all = *rounds == "all";
  }
  if (const auto from = options.find("rounds_from"); from != options.end() && !from->is_null()) {
    std::optional<long long> parsed;
    if (from->is_number_integer()) parsed = from->get<long long>();
    if (from->is_string()) parsed = ParseInteger(from->get<std::string>());
    if (!parsed || *parsed < 1 || *parsed > 1000000000LL) {
      return MakeError("rounds_from must be a round number from 1 to 1000000000, but is " + Shown(*from));
    }
    if (!request.all) return MakeError("rounds_from pages the full series: it needs rounds=all");
    request.from = *parsed;
  }
  return request;
}

std::vector<std::string> ModelEstimateOptionNames() { return {"rounds", "rounds_from"}; }

Result<nlohmann::json> CanonicalModelEstimateOptions(const nlohmann::json& options) {
  DENIABLE_ASSIGN_OR_RETURN(auto request, ReadSeriesRequest(options));
  nlohmann::json canonical = {{"rounds", request.all ? "all" : "chart"}};
  if (request.all) canonical["rounds_from"] = request.from;
  return canonical;
}

SeriesSelection SelectRounds(std::size_t completed, const SeriesRequest& request) {
  SeriesSelection selection;
  if (request.all) {
    const std::size_t first = static_cast<std::size_t>(request.from - 1);
    const std::size_t end = std::min(completed, first + kRoundsPage);
    for (std::size_t i = first; i < end; ++i) selection.steps.push_back(i);
    selection.shown = {{"rounds", "all"}, {"every", 1}, {"from", request.from},
                       {"to", end > first ? nlohmann::json(end) : nlohmann::json(nullptr)}, {"of", completed},
                       {"next_from", end < completed ? nlohmann::json(end + 1) : nlohmann::json(nullptr)}};
    return selection;
  }
  const std::size_t every = completed <= kChartRounds ? 1 : (completed + kChartRounds - 1) / kChartRounds;
  for (std::size_t i = 0; i < completed; i += every) selection.steps.push_back(i);
  if (completed > 0 && selection.steps.back() != completed - 1) selection.steps.push_back(completed - 1);
  selection.shown = {{"rounds", "chart"}, {"every", every}, {"from", completed > 0 ? 1 : 0}, {"to", completed},
                     {"of", completed}, {"next_from", nullptr}};
  return selection;
}

}  // namespace deniable
