#include "core/kinds/histogram/consumer_requests.h"

#include <cmath>
#include <set>

#include "core/common/json_fields.h"
#include "core/common/validation.h"

namespace deniable {
namespace {

Result<std::vector<RangeFraction>> ParseEqualBins(const nlohmann::json& request, const std::string& where) {
  DENIABLE_ASSIGN_OR_RETURN(auto bins, ReadInteger(request, "bins", 1, kMaxFineCells, where));
  return EqualBinBoundaries(static_cast<int>(bins));
}

// Edges from a to b, strictly increasing, each a simple fraction of the range.
Result<std::vector<RangeFraction>> ParseEdges(const nlohmann::json& request, NumericRange range,
                                              const std::string& where) {
  const std::string path = JoinPath(where, "edges");
  const auto& edges = request.at("edges");
  if (!edges.is_array() || edges.size() < 2 || edges.size() > static_cast<std::size_t>(kMaxFineCells) + 1) {
    return MakeError(path + ": must be an array of 2 to " + std::to_string(kMaxFineCells + 1) +
                     " numbers from the range's low end to its high end");
  }
  std::vector<RangeFraction> boundaries;
  for (std::size_t i = 0; i < edges.size(); ++i) {
    const std::string item = path + "[" + std::to_string(i) + "]";
    if (!edges[i].is_number() || !std::isfinite(edges[i].get<double>())) {
      return MakeError(item + ": must be a finite number, but is " + edges[i].dump());
    }
    const double edge = edges[i].get<double>();
    const bool first = i == 0, last = i + 1 == edges.size();
    if ((first && edge != range.low) || (last && edge != range.high)) {
      return MakeError(item + ": must be the range's " + (first ? "low" : "high") + " end " +
                       FormatNumber(first ? range.low : range.high) + ", but is " + FormatNumber(edge));
    }
    auto fraction = BoundaryFraction(edge, range);
    if (!fraction) return MakeError(item + ": " + fraction.error());
    if (!boundaries.empty() && !(boundaries.back() < *fraction)) {
      return MakeError(item + ": " + FormatNumber(edge) + " is not above the previous edge " +
                       FormatNumber(edges[i - 1].get<double>()));
    }
    boundaries.push_back(*fraction);
  }
  return boundaries;
}

Result<ConsumerRequest> ParseRequest(const nlohmann::json& request, NumericRange range, const std::string& where) {
  DENIABLE_TRY(RequireObject(request, where));
  DENIABLE_TRY(RejectUnknownFields(request, {"name", "bins", "edges"}, where));
  DENIABLE_ASSIGN_OR_RETURN(auto name, ReadString(request, "name", kMaxConsumerNameLength, true, where));
  if (request.contains("bins") == request.contains("edges")) {
    return MakeError(where + ": must have either \"bins\" (equal bins) or \"edges\", not " +
                     (request.contains("bins") ? "both" : "neither"));
  }
  DENIABLE_ASSIGN_OR_RETURN(auto boundaries,
                            request.contains("bins") ? ParseEqualBins(request, where) : ParseEdges(request, range, where));
  nlohmann::json definition = {{"name", name}};
  if (request.contains("bins")) definition["bins"] = request.at("bins");
  else definition["edges"] = request.at("edges");
  return ConsumerRequest{std::move(name), std::move(boundaries), std::move(definition)};
}

}  // namespace

Result<std::vector<ConsumerRequest>> ParseConsumerRequests(const nlohmann::json& question, NumericRange range,
                                                           const std::string& where) {
  const std::string path = JoinPath(where, "histograms");
  if (!question.contains("histograms")) return MakeError(path + ": required field is missing");
  const auto& list = question.at("histograms");
  if (!list.is_array() || list.empty() || list.size() > static_cast<std::size_t>(kMaxConsumers)) {
    return MakeError(path + ": must be an array of 1 to " + std::to_string(kMaxConsumers) + " histogram requests");
  }
  std::vector<ConsumerRequest> requests;
  std::set<std::string> names;
  for (std::size_t i = 0; i < list.size(); ++i) {
    const std::string item = path + "[" + std::to_string(i) + "]";
    DENIABLE_ASSIGN_OR_RETURN(auto request, ParseRequest(list[i], range, item));
    if (!names.insert(request.name).second) {
      return MakeError(item + ".name: \"" + request.name + "\" is used by an earlier histogram");
    }
    requests.push_back(std::move(request));
  }
  return requests;
}

}  // namespace deniable
